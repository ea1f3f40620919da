import type { CurrentUser } from '../../src/domain/auth/schemas';
import type { PasskeyDto } from '../../src/domain/auth/passkeys';
import { apiFetch } from '../httpClient';

/**
 * Passkey calls. The options are WebAuthn's JSON forms, handed as they are to
 * `portal/auth/webauthn.ts`; answers go back the same way. Errors are ApiError with a PASSKEY_*
 * code, or REAUTH_REQUIRED when registering or removing needs a fresh proof of identity.
 */
const send = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).payload;

/** WebAuthn options as the server made them; typed exactly by the browser library that reads them. */
export type PasskeyOptions = { challenge: string } & Record<string, unknown>;

export const passkeysApi = {
  list: () => send<PasskeyDto[]>('GET', '/auth/passkeys'),
  registrationOptions: () => send<PasskeyOptions>('POST', '/auth/passkeys/options', {}),
  register: (name: string, response: unknown) => send<PasskeyDto>('POST', '/auth/passkeys', { name, response }),
  remove: (id: string) => send<null>('DELETE', `/auth/passkeys/${encodeURIComponent(id)}`),
  signInOptions: () => send<PasskeyOptions>('POST', '/auth/passkeys/signin/options', {}),
  signIn: (response: unknown) => send<CurrentUser>('POST', '/auth/passkeys/signin', { response }),
};
