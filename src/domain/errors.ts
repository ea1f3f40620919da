/**
 * Error codes the API answers with (`code` beside `message` in an error envelope).
 * Each code has an i18n key `errors.<code>` holding its English text.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_LOCKED',
  'TWO_FACTOR_REQUIRED',
  'TWO_FACTOR_FAILED',
  'EMAIL_TAKEN',
  'TOKEN_INVALID',
  'VERIFICATION_ALREADY_SENT',
  'WRONG_PASSWORD',
  'SAME_PASSWORD',
  'CROSS_SITE_REQUEST',
  'NOT_A_MEMBER',
  'ROLE_REQUIRED',
  'LAST_ADMIN',
  'INVITATION_INVALID',
  'INVITATION_SIGN_IN_REQUIRED',
  'ALREADY_MEMBER',
  'CODE_INVALID',
  'TWO_FACTOR_NOT_PENDING',
  'FILE_TOO_BIG',
  'FILE_TYPE',
  'GOOGLE_TOKEN_INVALID',
  'GOOGLE_DISABLED',
  'GOOGLE_TOKEN_USED',
  'REAUTH_REQUIRED',
  'USER_NOT_FOUND',
  'CHECKBOXES_REQUIRED',
  'SERVICE_UNAVAILABLE',
  'EMAIL_NOT_VERIFIED',
  'INVITATION_LIMIT',
  'TOO_MANY_ATTEMPTS',
  'LAST_PLATFORM_ADMIN',
  'CANNOT_DEMOTE_SELF',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_FLIGHT',
  'PASSWORD_CHANGE_REQUIRED',
  'PROJECT_REQUIRED',
  'DEPLOYMENT_NOT_FOUND',
  'CHANGE_REFUSED',
  'SUBSCRIPTION_CANCELED',
  'PAYMENT_NOT_DUE',
  'PAYMENT_DECLINED',
  'PAYMENT_PROVIDER_ERROR',
  'WEBHOOK_SIGNATURE_INVALID',
  'WEBHOOK_PAYLOAD_INVALID',
  'TRANSACTION_NOT_FOUND',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Field errors: each field's messages, first one shown (SPEC §8). */
export type FieldErrors = Record<string, string[]>;

/** The `{ message, payload }` envelope every API reply uses. */
export interface Envelope<T> {
  message: string;
  payload: T;
}

export interface ErrorEnvelope {
  message: string;
  code: ErrorCode;
  payload: { errors?: FieldErrors; errorId?: string };
}
