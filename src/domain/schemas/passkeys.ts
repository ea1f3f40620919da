import { z } from 'zod';
import { noHtml } from '../validation';

/**
 * Passkeys (WebAuthn): the wire shapes of the ceremonies, shared by the browser and the API. The
 * options the server makes are passed to the browser as they are; the browser's answers are
 * checked here for shape only, the cryptography is the server's (`server/services/passkeys.ts`).
 */

export const PASSKEY_LIMITS = {
  nameMax: 64,
  /** Passkeys one account may hold. */
  perUser: 20,
  /** How long a ceremony's challenge is accepted. */
  challengeMinutes: 5,
} as const;

const b64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+={0,2}$/, 'validation.invalid');
const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);
const extensions = z.object({}).loose();

/** What `startRegistration` of @simplewebauthn/browser hands back. */
export const registrationResponseSchema = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16384),
    transports: transports.optional(),
    authenticatorData: b64url(16384).optional(),
    publicKey: b64url(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
});

/** What `startAuthentication` hands back. */
export const authenticationResponseSchema = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(16384),
    signature: b64url(4096),
    userHandle: b64url(512).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensions,
});
export type AuthenticationResponseBody = z.infer<typeof authenticationResponseSchema>;

export const passkeyNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(PASSKEY_LIMITS.nameMax, 'validation.invalid')
  .refine(noHtml, 'validation.noHtml');

/** POST /auth/passkeys: the new passkey's name and the authenticator's answer. */
export const registerPasskeySchema = z.object({ name: passkeyNameSchema, response: registrationResponseSchema });
export type RegisterPasskeyBody = z.infer<typeof registerPasskeySchema>;

/** POST /auth/passkeys/signin: a passkey alone. */
export const passkeySignInSchema = z.object({ response: authenticationResponseSchema });

export const passkeyIdParamsSchema = z.object({ id: z.uuid({ error: 'validation.invalid' }) });

/** A passkey as the profile lists it. */
export const passkeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  transports: z.array(z.string()),
});
export type PasskeyDto = z.infer<typeof passkeySchema>;

/**
 * The options the browser passes to `navigator.credentials` (WebAuthn's JSON forms), made by the
 * server; typed loosely here because the browser library types them exactly.
 */
export const passkeyOptionsSchema = z.object({ challenge: z.string() }).loose();
