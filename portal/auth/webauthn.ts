import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyOptions } from '../../dataProvider/passkeys';

/**
 * The browser side of passkeys, through @simplewebauthn/browser loaded on first use: the sign-in
 * page is a front-door page with a first-load budget, and most visits never touch a passkey.
 */
const library = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all; false during the prerender and on the server. */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Whether the browser offers passkeys in the email field's autofill (WebAuthn conditional UI). */
export async function autofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  return (await library()).browserSupportsWebAuthnAutofill();
}

/** Creates a passkey on the user's authenticator; resolves to the answer for POST /auth/passkeys. */
export async function createPasskey(options: PasskeyOptions): Promise<unknown> {
  const { startRegistration } = await library();
  return startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
}

/**
 * Asks the authenticator to sign in. With `autofill`, the request waits for the user to pick a
 * passkey in the email field's suggestions; a later ceremony (the button) cancels it.
 */
export async function getPasskey(options: PasskeyOptions, autofill = false): Promise<unknown> {
  const { startAuthentication } = await library();
  return startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
}

/** Ends a pending autofill request (the page is going away). */
export async function cancelPasskeyRequest(): Promise<void> {
  (await library()).WebAuthnAbortService.cancelCeremony();
}

/** The user closed the browser's dialog, or it timed out: not an error worth a message. */
export const passkeyDismissed = (error: unknown): boolean => error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError' || /ERROR_CEREMONY_ABORTED/.test(String((error as { code?: unknown }).code)));
