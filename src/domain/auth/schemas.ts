import { z } from 'zod';
import { isCommonPassword } from './commonPasswords';
import { COMPANY_ROLES, LIMITS } from '../constants';
import { emailSchema, noHtml, passwordSchema } from '../validation';

/** Request bodies of the account calls (SPEC §5, §7), shared by the forms and the server. */

const name = (min: number, key: string) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .min(min, key)
    .max(LIMITS.nameMax, key)
    .refine(noHtml, 'validation.noHtml');

/** A new password: SPEC §5's rules plus refusal of common passwords. */
export const newPasswordSchema = passwordSchema.refine((p) => !isCommonPassword(p), 'validation.commonPassword');

export const signUpSchema = z.object({
  firstName: name(LIMITS.nameMin, 'validation.nameLength'),
  lastName: name(LIMITS.nameMin, 'validation.nameLength'),
  email: emailSchema,
  password: newPasswordSchema,
});
export type SignUpBody = z.infer<typeof signUpSchema>;

const mustBeTrue = z.literal(true, { error: 'validation.mustBeTrue' });
/** The sign-up form: the payload plus both agreement boxes, which must be ticked. */
export const signUpFormSchema = signUpSchema.extend({ acceptTerms: mustBeTrue, acceptPrivacy: mustBeTrue });

export const authCodeSchema = z.string().regex(/^\d{6}$/, 'validation.authCode');

/** At sign-in the code may also be a one-time recovery code (xxxxx-xxxxx). */
export const signInCodeSchema = z.string().trim().regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, 'validation.authCode');

/** base64url text of at most `max` characters, as WebAuthn's JSON forms carry bytes. */
export const base64urlText = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+={0,2}$/, 'validation.invalid');
export const clientExtensionsSchema = z.object({}).loose();

/**
 * A passkey's answer to a sign-in (`startAuthentication` of @simplewebauthn/browser), checked for
 * shape only; here rather than in passkeys.ts because the sign-in body carries it.
 */
export const authenticationResponseSchema = z.object({
  id: base64urlText(1024),
  rawId: base64urlText(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64urlText(4096),
    authenticatorData: base64urlText(16384),
    signature: base64urlText(4096),
    userHandle: base64urlText(512).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensionsSchema,
});
export type AuthenticationResponseBody = z.infer<typeof authenticationResponseSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(256, 'validation.invalid'),
  authCode: signInCodeSchema.optional(),
  /** A passkey's answer instead of the code, for an account with a second factor. */
  passkey: authenticationResponseSchema.optional(),
});
export type SignInBody = z.infer<typeof signInSchema>;

const idTokenSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(8192, 'validation.invalid');
/** POST /auth/google-signin: Google's ID token, and the second factor when the account has one. */
export const googleSignInSchema = z.object({ idToken: idTokenSchema, authCode: signInCodeSchema.optional() });
export type GoogleSignInBody = z.infer<typeof googleSignInSchema>;
const agreed = z.literal(true, { error: 'errors.checkboxesRequired' });
/** POST /auth/google-signup: social sign-up needs both agreements too (SPEC §8). */
export const googleSignUpSchema = z.object({ idToken: idTokenSchema, acceptTerms: agreed, acceptPrivacy: agreed });

export const emailOnlySchema = z.object({ email: emailSchema });
export type EmailOnlyBody = z.infer<typeof emailOnlySchema>;

/** One-time tokens are 43 base64url characters (256 bits); anything else is refused unread. */
export const tokenSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(128, 'validation.invalid');
export const tokenBodySchema = z.object({ token: tokenSchema });
export type TokenBody = z.infer<typeof tokenBodySchema>;

export const resetPasswordSchema = z.object({ token: tokenSchema, password: newPasswordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordSchema>;

/** The reset form: a new password typed twice. */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string().min(1, 'validation.required').min(LIMITS.passwordMin, 'validation.passwordLength').max(LIMITS.passwordMax, 'validation.passwordLength'),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'validation.match' });

/** The old password is needed when the account has one; a Google-only account sets its first. */
export const setPasswordSchema = z.object({
  oldPassword: z.string().max(256, 'validation.invalid').optional(),
  password: newPasswordSchema,
});
export type SetPasswordBody = z.infer<typeof setPasswordSchema>;

/** POST /auth/reauthenticate: the password, or a current code for an account without one. */
export const reauthenticateSchema = z
  .object({ password: z.string().min(1, 'validation.required').max(256, 'validation.invalid').optional(), code: signInCodeSchema.optional() })
  .refine((v) => v.password !== undefined || v.code !== undefined, { path: ['password'], message: 'validation.required' });
export type ReauthenticateBody = z.infer<typeof reauthenticateSchema>;

export const deleteMeSchema = z.object({ password: z.string().max(256, 'validation.invalid').optional() });
export type DeleteMeBody = z.infer<typeof deleteMeSchema>;

/** The signed-in user as GET /auth/me answers (SPEC §3 logged-in user). */
export const currentUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  designation: z.string().nullable(),
  picture: z.string().nullable(),
  via: z.enum(['local', 'google']),
  /** False for accounts made with Google that never set a password. */
  hasPassword: z.boolean(),
  isAdmin: z.boolean(),
  mfaEnabled: z.boolean(),
  /** The account must choose a new password (a generated first-admin one) before anything else. */
  mustChangePassword: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  /** What onboarding still asks for: verifying the email, then naming a company; null when done. */
  onboarding: z.enum(['verify', 'company']).nullable(),
  /** The user's companies and their role in each (what the screens offer follows ACCESS_LEVELS). */
  companies: z.array(z.object({ _id: z.string(), name: z.string(), role: z.enum(COMPANY_ROLES) })),
  /** Set while a platform admin views the product as this user, read-only (admin companies). */
  viewAs: z.object({ adminEmail: z.string(), companyId: z.string() }).nullable().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const twoFactorCodeSchema = z.object({ code: authCodeSchema });
/** Disabling two-factor sign-in asks for a current code, or a recovery code. */
export const twoFactorDisableSchema = z.object({ code: signInCodeSchema });

/** Answer of POST /auth/2fa/initiate: the secret to enter or scan. */
export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string(), qrImage: z.string() });
/** Answer of POST /auth/2fa/enable: recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
/** Answer of POST /auth/google-signup: the user, and whether the account was made just now. */
export const googleSignUpAnswerSchema = currentUserSchema.extend({ justSignedUp: z.boolean() });
/** Answer of POST /users (sign-up): the same whether or not the address was taken. */
export const signUpAnswerSchema = z.object({ email: z.string() });
/** Query of GET /auth/unlock (the mailed link); a bad token redirects, it is never a 400. */
export const unlockQuerySchema = z.object({ token: z.string().optional().catch(undefined) });
