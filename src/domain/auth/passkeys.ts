import { z } from 'zod';
import { noHtml } from '../validation';
import { authenticationResponseSchema, base64urlText, clientExtensionsSchema, type AuthenticationResponseBody } from './schemas';

export { authenticationResponseSchema, type AuthenticationResponseBody };

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

const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);

/** What `startRegistration` of @simplewebauthn/browser hands back. */
export const registrationResponseSchema = z.object({
  id: base64urlText(1024),
  rawId: base64urlText(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64urlText(4096),
    attestationObject: base64urlText(16384),
    transports: transports.optional(),
    authenticatorData: base64urlText(16384).optional(),
    publicKey: base64urlText(4096).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensionsSchema,
});

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
export type PasskeyOptionsDto = z.infer<typeof passkeyOptionsSchema>;
