import type { SignUpWithOrderBody } from '../../src/domain/orders/schemas';
import type { CurrentUser, EmailOnlyBody, ResetPasswordBody, SetPasswordBody, SignInBody } from '../../src/domain/auth/schemas';
import { apiFetch } from '../httpClient';

/**
 * Typed account calls (SPEC §7 Auth and Users). Errors are ApiError with the SPEC §8 message and a
 * `code`: sign-in answers INVALID_CREDENTIALS, ACCOUNT_LOCKED, TWO_FACTOR_REQUIRED, TWO_FACTOR_FAILED
 * or RATE_LIMITED; GET /auth/me answers 401 UNAUTHORIZED ('Authentication failed.') without a session.
 */
const post = async <T>(path: string, body?: unknown): Promise<T> =>
  (await apiFetch<T>(path, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) })).payload;

/** What starting two-factor answers: the secret, its otpauth link and QR image. */
export type TwoFactorSetup = { secret: string; otpauthUri: string; qrImage: string };

export const authApi = {
  me: async () => (await apiFetch<CurrentUser>('/auth/me')).payload,
  /** Signs nobody in: the answer is the same for a taken address (the owner gets a mail). */
  signUp: (body: SignUpWithOrderBody) => post<{ email: string }>('/users', body),
  signIn: (body: SignInBody) => post<CurrentUser>('/auth/signin', body),
  signOut: () => post<null>('/auth/signout'),
  /** null: verified, but sign-in is still needed (an account with a second factor, or another account signed in). */
  verify: (token: string) => post<CurrentUser | null>('/auth/verify', { token }),
  reauthenticate: (proof: { password?: string; code?: string }) => post<null>('/auth/reauthenticate', proof),
  resendVerification: () => post<null>('/auth/verify/issue'),
  forgotPassword: (body: EmailOnlyBody) => post<null>('/auth/forgot-password', body),
  verifyResetToken: (token: string) => post<null>('/auth/verify/reset-token', { token }),
  resetPassword: (body: ResetPasswordBody) => post<null>('/auth/reset-password', body),
  requestUnlock: (body: EmailOnlyBody) => post<null>('/auth/request-unlock', body),
  requestMagicLink: (body: EmailOnlyBody) => post<null>('/auth/magic-link', body),
  signInWithMagicLink: (token: string) => post<CurrentUser>('/auth/signin/magic-link', { token }),
  setPassword: (body: SetPasswordBody) => post<null>('/auth/set-password', body),
  googleSignIn: (idToken: string, authCode?: string) => post<CurrentUser>('/auth/google-signin', { idToken, authCode }),
  googleSignUp: (idToken: string) => post<CurrentUser & { justSignedUp: boolean }>('/auth/google-signup', { idToken, acceptTerms: true, acceptPrivacy: true }),
  twoFactorInitiate: () => post<TwoFactorSetup>('/auth/2fa/initiate'),
  twoFactorEnable: (code: string) => post<{ recoveryCodes: string[] }>('/auth/2fa/enable', { code }),
  /** Takes a current 6-digit code or a recovery code. */
  twoFactorDisable: (code: string) => post<null>('/auth/2fa/disable', { code }),
  deleteMe: async (password?: string) => (await apiFetch<null>('/auth/me', { method: 'DELETE', body: JSON.stringify({ password }) })).payload,
};
