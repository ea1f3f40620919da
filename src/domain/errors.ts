import { z } from 'zod';

/**
 * The one error table: every code the API answers with (`code` beside `message` in an error
 * envelope), declared once with its HTTP status and the i18n key of its message. Services throw
 * `new AppError('CODE', details?)`; the status and message come from here, never from the throw.
 * A code means one thing: where two situations need different statuses, they get two codes.
 */
export const ERRORS = {
  /** A request Fastify could not read (bad URL, bad header). */
  BAD_REQUEST: { status: 400, message: 'errors.BAD_REQUEST' },
  /** Field errors in payload.errors, translated. */
  VALIDATION_FAILED: { status: 400, message: 'errors.VALIDATION_FAILED' },
  INVALID_JSON: { status: 400, message: 'errors.INVALID_JSON' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'errors.UNSUPPORTED_MEDIA_TYPE' },
  /** A JSON body over BODY_LIMIT. */
  PAYLOAD_TOO_LARGE: { status: 413, message: 'errors.PAYLOAD_TOO_LARGE' },
  /** A multipart/form-data body that cannot be read (no boundary, a broken or cut-off part). */
  MULTIPART_INVALID: { status: 400, message: 'errors.MULTIPART_INVALID' },
  /** A path part longer than the router reads (Fastify's maxParamLength). */
  URI_TOO_LONG: { status: 414, message: 'errors.URI_TOO_LONG' },
  /** Request line and headers past Node's maxHeaderSize. */
  HEADERS_TOO_LARGE: { status: 431, message: 'errors.HEADERS_TOO_LARGE' },
  /** A request not received within REQUEST_TIMEOUT_MS. */
  REQUEST_TIMEOUT: { status: 408, message: 'errors.REQUEST_TIMEOUT' },
  /** No valid session. */
  UNAUTHORIZED: { status: 401, message: 'errors.UNAUTHORIZED' },
  /** Signed in, but not allowed (not the account itself, not a platform admin). */
  FORBIDDEN: { status: 403, message: 'errors.FORBIDDEN' },
  NOT_FOUND: { status: 404, message: 'errors.NOT_FOUND' },
  UNKNOWN_HOST: { status: 404, message: 'errors.UNKNOWN_HOST' },
  ROUTE_NOT_FOUND: { status: 404, message: 'errors.ROUTE_NOT_FOUND' },
  CONFLICT: { status: 409, message: 'errors.CONFLICT' },
  /** params: after */
  RATE_LIMITED: { status: 429, message: 'errors.RATE_LIMITED' },
  INVALID_CREDENTIALS: { status: 401, message: 'errors.INVALID_CREDENTIALS' },
  ACCOUNT_LOCKED: { status: 423, message: 'errors.ACCOUNT_LOCKED' },
  /** An administrator locked the whole account: no mailbox link lifts it, only an administrator. */
  ACCOUNT_SUSPENDED: { status: 423, message: 'errors.ACCOUNT_SUSPENDED' },
  /** Sign-in needs the authenticator code. */
  TWO_FACTOR_REQUIRED: { status: 401, message: 'errors.TWO_FACTOR_REQUIRED' },
  /** Sign-in with a wrong or spent code (the sign-in page checks this code). */
  TWO_FACTOR_FAILED: { status: 401, message: 'errors.TWO_FACTOR_FAILED' },
  /** A signed-in user's code (enable, disable, re-authenticate) is wrong: a field error on `code`. */
  TWO_FACTOR_CODE_WRONG: { status: 400, message: 'errors.TWO_FACTOR_CODE_WRONG' },
  EMAIL_TAKEN: { status: 409, message: 'errors.EMAIL_TAKEN' },
  /** A mailed verify or reset link that is unknown, spent or expired. */
  TOKEN_INVALID: { status: 400, message: 'errors.TOKEN_INVALID' },
  /** A mailed sign-in link that is unknown, spent or expired. */
  MAGIC_LINK_INVALID: { status: 400, message: 'errors.MAGIC_LINK_INVALID' },
  VERIFICATION_ALREADY_SENT: { status: 429, message: 'errors.VERIFICATION_ALREADY_SENT' },
  WRONG_PASSWORD: { status: 400, message: 'errors.WRONG_PASSWORD' },
  SAME_PASSWORD: { status: 400, message: 'errors.SAME_PASSWORD' },
  CROSS_SITE_REQUEST: { status: 403, message: 'errors.CROSS_SITE_REQUEST' },
  NOT_A_MEMBER: { status: 403, message: 'errors.NOT_A_MEMBER' },
  ROLE_REQUIRED: { status: 403, message: 'errors.ROLE_REQUIRED' },
  /** Billing (invoices, card, payments, usage, quotes) for a viewer. */
  BILLING_ROLE_REQUIRED: { status: 403, message: 'errors.BILLING_ROLE_REQUIRED' },
  /** The servers and their dashboards for a billing member. */
  SERVERS_ROLE_REQUIRED: { status: 403, message: 'errors.SERVERS_ROLE_REQUIRED' },
  /** A quote that does not exist, or one shown to someone outside its company's billing people. */
  QUOTE_NOT_FOUND: { status: 404, message: 'errors.QUOTE_NOT_FOUND' },
  QUOTE_EXPIRED: { status: 409, message: 'errors.QUOTE_EXPIRED' },
  QUOTE_DECLINED: { status: 409, message: 'errors.QUOTE_DECLINED' },
  /** Approved and paid: its server exists. */
  QUOTE_USED: { status: 409, message: 'errors.QUOTE_USED' },
  /** Removing the last admin of a company. */
  LAST_ADMIN: { status: 409, message: 'errors.LAST_ADMIN' },
  /** Deleting the account of the last admin of a company with other members. */
  LAST_ADMIN_ACCOUNT: { status: 409, message: 'errors.LAST_ADMIN_ACCOUNT' },
  INVITATION_INVALID: { status: 400, message: 'errors.INVITATION_INVALID' },
  INVITATION_SIGN_IN_REQUIRED: { status: 401, message: 'errors.INVITATION_SIGN_IN_REQUIRED' },
  ALREADY_MEMBER: { status: 409, message: 'errors.ALREADY_MEMBER' },
  /** A wrong company deletion code. */
  CODE_INVALID: { status: 400, message: 'errors.CODE_INVALID' },
  TWO_FACTOR_NOT_PENDING: { status: 400, message: 'errors.TWO_FACTOR_NOT_PENDING' },
  /** An upload over the limit, whether declared or found while reading. */
  FILE_TOO_BIG: { status: 413, message: 'errors.FILE_TOO_BIG' },
  FILE_TYPE: { status: 400, message: 'errors.FILE_TYPE' },
  GOOGLE_TOKEN_INVALID: { status: 401, message: 'errors.GOOGLE_TOKEN_INVALID' },
  GOOGLE_DISABLED: { status: 404, message: 'errors.GOOGLE_DISABLED' },
  GOOGLE_TOKEN_USED: { status: 401, message: 'errors.GOOGLE_TOKEN_USED' },
  REAUTH_REQUIRED: { status: 403, message: 'errors.REAUTH_REQUIRED' },
  USER_NOT_FOUND: { status: 404, message: 'errors.USER_NOT_FOUND' },
  CHECKBOXES_REQUIRED: { status: 400, message: 'errors.CHECKBOXES_REQUIRED' },
  /** We cannot answer now (database down, Google keys unreachable). */
  SERVICE_UNAVAILABLE: { status: 503, message: 'errors.SERVICE_UNAVAILABLE' },
  /** The content service answered badly or not at all. */
  CONTENT_UNAVAILABLE: { status: 502, message: 'errors.CONTENT_UNAVAILABLE' },
  /** params: provider */
  PROVIDER_NOT_FOUND: { status: 404, message: 'errors.PROVIDER_NOT_FOUND' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'errors.EMAIL_NOT_VERIFIED' },
  INVITATION_LIMIT: { status: 429, message: 'errors.INVITATION_LIMIT' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'errors.TOO_MANY_ATTEMPTS' },
  LAST_PLATFORM_ADMIN: { status: 409, message: 'errors.LAST_PLATFORM_ADMIN' },
  CANNOT_DEMOTE_SELF: { status: 409, message: 'errors.CANNOT_DEMOTE_SELF' },
  IDEMPOTENCY_KEY_INVALID: { status: 400, message: 'errors.IDEMPOTENCY_KEY_INVALID' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'errors.IDEMPOTENCY_KEY_REUSED' },
  IDEMPOTENCY_KEY_IN_FLIGHT: { status: 409, message: 'errors.IDEMPOTENCY_KEY_IN_FLIGHT' },
  PASSWORD_CHANGE_REQUIRED: { status: 403, message: 'errors.PASSWORD_CHANGE_REQUIRED' },
  /** Ordering and payments. */
  PROJECT_REQUIRED: { status: 400, message: 'errors.PROJECT_REQUIRED' },
  DEPLOYMENT_NOT_FOUND: { status: 404, message: 'errors.DEPLOYMENT_NOT_FOUND' },
  /** A change of a server the SPEC §4 rules refuse; field errors say which. */
  CHANGE_REFUSED: { status: 422, message: 'errors.CHANGE_REFUSED' },
  SUBSCRIPTION_CANCELED: { status: 409, message: 'errors.SUBSCRIPTION_CANCELED' },
  PAYMENT_NOT_DUE: { status: 409, message: 'errors.PAYMENT_NOT_DUE' },
  /** params: reason */
  PAYMENT_DECLINED: { status: 402, message: 'errors.PAYMENT_DECLINED' },
  /** Paying with the card on file while the company has none. */
  NO_CARD_ON_FILE: { status: 409, message: 'errors.NO_CARD_ON_FILE' },
  /** A card update with Paddle while no subscription of the company is billed there (its card lives with one). */
  NO_BILLED_SUBSCRIPTION: { status: 409, message: 'errors.NO_BILLED_SUBSCRIPTION' },
  PAYMENT_PROVIDER_ERROR: { status: 502, message: 'errors.PAYMENT_PROVIDER_ERROR' },
  /** A paid order or change while no payment vendor is configured (production without Paddle nor PAYMENTS_STAND_IN). */
  PAYMENTS_UNAVAILABLE: { status: 409, message: 'errors.PAYMENTS_UNAVAILABLE' },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: 'errors.WEBHOOK_SIGNATURE_INVALID' },
  WEBHOOK_PAYLOAD_INVALID: { status: 400, message: 'errors.WEBHOOK_PAYLOAD_INVALID' },
  TRANSACTION_NOT_FOUND: { status: 404, message: 'errors.TRANSACTION_NOT_FOUND' },
  /** A project id that is not one of the named company's projects. */
  PROJECT_NOT_FOUND: { status: 404, message: 'errors.PROJECT_NOT_FOUND' },
  /** Deleting a project that still has servers; params: count. */
  PROJECT_HAS_SERVERS: { status: 409, message: 'errors.PROJECT_HAS_SERVERS' },
  /** Another project of the company already has this name. */
  PROJECT_NAME_TAKEN: { status: 409, message: 'errors.PROJECT_NAME_TAKEN' },
  /** params: max */
  PROJECT_LIMIT: { status: 409, message: 'errors.PROJECT_LIMIT' },
  /** Running servers. params: task (the task it is busy with). */
  DEPLOYMENT_BUSY: { status: 409, message: 'errors.DEPLOYMENT_BUSY' },
  /** params: status */
  DEPLOYMENT_STATE_CONFLICT: { status: 409, message: 'errors.DEPLOYMENT_STATE_CONFLICT' },
  DEPLOYMENT_DELETED: { status: 409, message: 'errors.DEPLOYMENT_DELETED' },
  TERMINATION_ALREADY_SCHEDULED: { status: 409, message: 'errors.TERMINATION_ALREADY_SCHEDULED' },
  TERMINATION_NOT_SCHEDULED: { status: 409, message: 'errors.TERMINATION_NOT_SCHEDULED' },
  TERMINATION_SCHEDULED: { status: 409, message: 'errors.TERMINATION_SCHEDULED' },
  RESTORE_WINDOW_PASSED: { status: 409, message: 'errors.RESTORE_WINDOW_PASSED' },
  NOTHING_TO_RESTORE: { status: 409, message: 'errors.NOTHING_TO_RESTORE' },
  BACKUP_NOT_FOUND: { status: 404, message: 'errors.BACKUP_NOT_FOUND' },
  BACKUP_NOT_READY: { status: 409, message: 'errors.BACKUP_NOT_READY' },
  BACKUPS_NOT_IN_PLAN: { status: 409, message: 'errors.BACKUPS_NOT_IN_PLAN' },
  BACKUP_LINK_INVALID: { status: 403, message: 'errors.BACKUP_LINK_INVALID' },
  BACKUP_LINK_EXPIRED: { status: 410, message: 'errors.BACKUP_LINK_EXPIRED' },
  /** Admin task queue. */
  TASK_NOT_FOUND: { status: 404, message: 'errors.TASK_NOT_FOUND' },
  /** A retry of a task that has not failed, a cancel of one not queued. params: status */
  TASK_STATE_CONFLICT: { status: 409, message: 'errors.TASK_STATE_CONFLICT' },
  TASK_ALREADY_RETRIED: { status: 409, message: 'errors.TASK_ALREADY_RETRIED' },
  /** Admin jobs: not one of the worker's queues. */
  JOB_NOT_FOUND: { status: 404, message: 'errors.JOB_NOT_FOUND' },
  /** Pause of a paused job, resume of a running schedule, or an action on a queue without one. params: state */
  JOB_STATE_CONFLICT: { status: 409, message: 'errors.JOB_STATE_CONFLICT' },
  DOMAIN_NOT_SET: { status: 409, message: 'errors.DOMAIN_NOT_SET' },
  /** A custom domain on a server whose plan does not include the custom-domain option. */
  DOMAIN_NOT_IN_PLAN: { status: 409, message: 'errors.DOMAIN_NOT_IN_PLAN' },
  /** The TLS edge's ask (GET /edge/ask) called by anyone but the edge (EDGE_ADDRESSES, EDGE_ASK_TOKEN). */
  EDGE_ONLY: { status: 403, message: 'errors.EDGE_ONLY' },
  /** The edge asked for a name no server is served at over https: it gets no certificate. */
  EDGE_NAME_NOT_SERVED: { status: 404, message: 'errors.EDGE_NAME_NOT_SERVED' },
  /** A custom domain refused as a name (src/domain/deployments/customDomain.ts; the portal's form says these too). params: domain */
  DOMAIN_INVALID: { status: 400, message: 'errors.DOMAIN_INVALID' },
  /** params: max, length */
  DOMAIN_TOO_LONG: { status: 400, message: 'errors.DOMAIN_TOO_LONG' },
  /** params: domain */
  DOMAIN_IS_IP: { status: 400, message: 'errors.DOMAIN_IS_IP' },
  /** Unicode where DNS needs the ASCII form. params: domain, ascii (its `xn--` form) */
  DOMAIN_NOT_IDNA: { status: 400, message: 'errors.DOMAIN_NOT_IDNA' },
  /** A public suffix (co.uk, github.io): nobody owns it alone. params: domain */
  DOMAIN_PUBLIC_SUFFIX: { status: 400, message: 'errors.DOMAIN_PUBLIC_SUFFIX' },
  /** One of Beacon's own hosts: the portal's, or a name under the servers' suffix. params: domain */
  DOMAIN_RESERVED: { status: 400, message: 'errors.DOMAIN_RESERVED' },
  /** Another server's custom domain. params: domain */
  DOMAIN_TAKEN: { status: 409, message: 'errors.DOMAIN_TAKEN' },
  SERVER_NOT_READY: { status: 409, message: 'errors.SERVER_NOT_READY' },
  /** SPEC §8 task outcomes, shown with a failed task. */
  RESTORATION_FAILED: { status: 502, message: 'errors.RESTORATION_FAILED' },
  USER_UNLOCK_FAILED: { status: 502, message: 'errors.USER_UNLOCK_FAILED' },
  HEALTH_CHECK_FAILED: { status: 502, message: 'errors.HEALTH_CHECK_FAILED' },
  /** Analytics dashboard: the signed-in user or token has no place on this dashboard. */
  ANALYTICS_NOT_MEMBER: { status: 403, message: 'errors.ANALYTICS_NOT_MEMBER' },
  /** The deployment has no analytics dashboard yet. */
  ANALYTICS_TENANT_MISSING: { status: 404, message: 'errors.ANALYTICS_TENANT_MISSING' },
  ANALYTICS_APP_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_APP_NOT_FOUND' },
  /** Clearing, deleting or editing an app: only its admins (and global admins). */
  ANALYTICS_APP_ADMIN_REQUIRED: { status: 403, message: 'errors.ANALYTICS_APP_ADMIN_REQUIRED' },
  ANALYTICS_GLOBAL_ADMIN_REQUIRED: { status: 403, message: 'errors.ANALYTICS_GLOBAL_ADMIN_REQUIRED' },
  /** A locked app refuses clearing and deletion. */
  ANALYTICS_APP_LOCKED: { status: 409, message: 'errors.ANALYTICS_APP_LOCKED' },
  ANALYTICS_LAST_GLOBAL_ADMIN: { status: 409, message: 'errors.ANALYTICS_LAST_GLOBAL_ADMIN' },
  ANALYTICS_MEMBER_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_MEMBER_NOT_FOUND' },
  /** A user who is not a global admin must be admin or user of at least one app. */
  ANALYTICS_MEMBER_NEEDS_APP: { status: 400, message: 'errors.ANALYTICS_MEMBER_NEEDS_APP' },
  /** Dashboard users come from the company that owns the server. */
  ANALYTICS_NOT_COMPANY_USER: { status: 400, message: 'errors.ANALYTICS_NOT_COMPANY_USER' },
  /** An event edit naming an event the app does not have. */
  ANALYTICS_EVENT_UPDATE_FAILED: { status: 404, message: 'errors.ANALYTICS_EVENT_UPDATE_FAILED' },
  ANALYTICS_GROUP_TOO_SMALL: { status: 400, message: 'errors.ANALYTICS_GROUP_TOO_SMALL' },
  ANALYTICS_GROUP_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_GROUP_NOT_FOUND' },
  ANALYTICS_TILES_LIMIT: { status: 400, message: 'errors.ANALYTICS_TILES_LIMIT' },
  ANALYTICS_TILE_DUPLICATE: { status: 409, message: 'errors.ANALYTICS_TILE_DUPLICATE' },
  /** params: pattern */
  ANALYTICS_TOKEN_PATTERN_INVALID: { status: 400, message: 'errors.ANALYTICS_TOKEN_PATTERN_INVALID' },
  ANALYTICS_TOKEN_NEEDS_APPS: { status: 400, message: 'errors.ANALYTICS_TOKEN_NEEDS_APPS' },
  ANALYTICS_TOKEN_NEEDS_EXPIRY: { status: 400, message: 'errors.ANALYTICS_TOKEN_NEEDS_EXPIRY' },
  /** A presented token that is unknown, expired or spent. */
  ANALYTICS_TOKEN_INVALID: { status: 401, message: 'errors.ANALYTICS_TOKEN_INVALID' },
  /** A token presented for an endpoint, parameter or app outside its patterns. */
  ANALYTICS_TOKEN_REFUSED: { status: 403, message: 'errors.ANALYTICS_TOKEN_REFUSED' },
  ANALYTICS_TOKEN_DELETE_FAILED: { status: 404, message: 'errors.ANALYTICS_TOKEN_DELETE_FAILED' },
  ANALYTICS_PASSWORDS_DO_NOT_MATCH: { status: 400, message: 'errors.ANALYTICS_PASSWORDS_DO_NOT_MATCH' },
  ANALYTICS_WRONG_PASSWORD: { status: 400, message: 'errors.ANALYTICS_WRONG_PASSWORD' },
  ANALYTICS_SAME_PASSWORD: { status: 400, message: 'errors.ANALYTICS_SAME_PASSWORD' },
  ANALYTICS_API_KEY_INVALID: { status: 400, message: 'errors.ANALYTICS_API_KEY_INVALID' },
  ANALYTICS_ICON_TYPE: { status: 400, message: 'errors.ANALYTICS_ICON_TYPE' },
  ANALYTICS_EXPORT_FAILED: { status: 500, message: 'errors.ANALYTICS_EXPORT_FAILED' },
  ANALYTICS_EXPORT_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_EXPORT_NOT_FOUND' },
  ANALYTICS_APP_USER_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_APP_USER_NOT_FOUND' },
  ANALYTICS_REPORT_NOT_FOUND: { status: 404, message: 'errors.ANALYTICS_REPORT_NOT_FOUND' },
  /** The server sign-in link is not ours, or was made for another server or user. */
  ANALYTICS_SIGNIN_LINK_INVALID: { status: 403, message: 'errors.ANALYTICS_SIGNIN_LINK_INVALID' },
  ANALYTICS_SIGNIN_LINK_EXPIRED: { status: 410, message: 'errors.ANALYTICS_SIGNIN_LINK_EXPIRED' },
  /** The server is not live and paid for (an unpaid order, a deleted server): its dashboard is closed. */
  ANALYTICS_SERVER_UNAVAILABLE: { status: 409, message: 'errors.ANALYTICS_SERVER_UNAVAILABLE' },
  /** The server is paused or its payment overdue: its data can be read, nothing changed. */
  ANALYTICS_READ_ONLY: { status: 409, message: 'errors.ANALYTICS_READ_ONLY' },
  /** The company's admins own the server: never locked, banned or stripped of global admin on its dashboard. */
  ANALYTICS_OWNER_PROTECTED: { status: 409, message: 'errors.ANALYTICS_OWNER_PROTECTED' },
  /** An icon file id that is not the app's own (a new icon comes only through the upload). */
  ANALYTICS_ICON_NOT_FOUND: { status: 400, message: 'errors.ANALYTICS_ICON_NOT_FOUND' },
  /** A report recipient who is not a user of the dashboard or of the company owning the server. */
  ANALYTICS_REPORT_RECIPIENT: { status: 400, message: 'errors.ANALYTICS_REPORT_RECIPIENT' },
  /** params: max */
  ANALYTICS_REPORT_SEND_LIMIT: { status: 429, message: 'errors.ANALYTICS_REPORT_SEND_LIMIT' },
  /** Admin area. An admin locking, deleting or viewing as themselves. */
  CANNOT_ACT_ON_SELF: { status: 409, message: 'errors.CANNOT_ACT_ON_SELF' },
  ALREADY_VERIFIED: { status: 409, message: 'errors.ALREADY_VERIFIED' },
  /** A company with no admin member cannot be viewed as its admin. */
  NO_COMPANY_ADMIN: { status: 409, message: 'errors.NO_COMPANY_ADMIN' },
  /** Any change attempted while an admin views the product as a company's admin. */
  VIEW_AS_READ_ONLY: { status: 403, message: 'errors.VIEW_AS_READ_ONLY' },
  PLAN_GROUP_NAME_TAKEN: { status: 409, message: 'errors.PLAN_GROUP_NAME_TAKEN' },
  /** Passkeys: an answer that fails WebAuthn's checks (origin, RP ID, signature, user verification), or an authenticator registered already. */
  PASSKEY_INVALID: { status: 400, message: 'errors.PASSKEY_INVALID' },
  /** The ceremony's challenge is unknown, expired or already used: start again. */
  PASSKEY_CHALLENGE_INVALID: { status: 400, message: 'errors.PASSKEY_CHALLENGE_INVALID' },
  /** A passkey this site does not know (or, as a second factor, another account's). */
  PASSKEY_UNKNOWN: { status: 401, message: 'errors.PASSKEY_UNKNOWN' },
  /** The authenticator's signature counter did not go up: possibly a cloned authenticator. */
  PASSKEY_COUNTER: { status: 401, message: 'errors.PASSKEY_COUNTER' },
  /** Not one of the signed-in user's passkeys. */
  PASSKEY_NOT_FOUND: { status: 404, message: 'errors.PASSKEY_NOT_FOUND' },
  /** Removing the passkey would leave the account no way to sign in. */
  PASSKEY_LAST_SIGN_IN: { status: 409, message: 'errors.PASSKEY_LAST_SIGN_IN' },
  /** params: max */
  PASSKEY_LIMIT: { status: 409, message: 'errors.PASSKEY_LIMIT' },
  /** params: errorId; the details are only in the log. */
  INTERNAL: { status: 500, message: 'errors.INTERNAL' },
} as const satisfies Record<string, { status: number; message: `errors.${string}` }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

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

/** The error envelope as a schema: what every route declares for its 4xx and 5xx answers. */
export const errorEnvelopeSchema = z.object({
  message: z.string(),
  code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
  payload: z.object({ errors: z.record(z.string(), z.array(z.string())).optional(), errorId: z.string().optional() }),
});
