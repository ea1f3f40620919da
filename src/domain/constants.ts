/** Enumerations of SPEC §4 and business constants of SPEC §9, shared by browser and server. */

export const AVAILABILITY = ['available', 'not_available', 'coming_soon'] as const;
export type Availability = (typeof AVAILABILITY)[number];

export const PLAN_TYPES = ['regular', 'free_forever', 'free_during_alpha'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const STATUSES = ['active', 'passive', 'inactive'] as const;
export type Status = (typeof STATUSES)[number];

export const PROVIDER_CODES = ['gcp', 'mock-cloud', 'unset'] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];

export const BILLING_CYCLES = ['month', 'year'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export const CURRENCIES = ['USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PAYMENT_PROVIDERS = ['free', 'paddle'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const FEATURE_TYPES = ['domain', 'feature', 'capability', 'retention', 'backup'] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

export const PLAN_KINDS = ['free', 'paid'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export const DESIGNATIONS = ['pm', 'dev', 'ops', 'ux', 'data', 'marketing', 'founder', 'other'] as const;
export type Designation = (typeof DESIGNATIONS)[number];

// Plain data, outside the zod schemas, so front-door pages can list them before their validation loads.
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const;
/** What each role may do: ACCESS_LEVELS in src/domain/companies/access.ts. */
export const COMPANY_ROLES = ['admin', 'viewer', 'billing'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** SPEC §9 defaults. */
export const DEFAULTS = {
  providerCode: 'gcp',
  regionCode: 'us-central1',
  sizeValue: 500,
  retentionCode: 'retention.6m',
  backupCode: 'backup.daily',
  domainCode: 'domain.default',
  paymentCycle: 'month',
  currency: 'USD',
  freePlanCode: 'v3.mau_500_gcp.base',
  paidPlanCode: 'v3.mau_1_000_gcp.base',
} as const satisfies {
  providerCode: ProviderCode;
  paymentCycle: BillingCycle;
  currency: Currency;
  [key: string]: string | number;
};

/** SPEC §9 timings, in milliseconds. */
export const TIMINGS = {
  companyRefreshMs: 10_000,
  // Billing changes with payments and webhooks, not by the second.
  billingRefreshMs: 60_000,
  // The past-due banner checks again every few minutes.
  pastDueCheckMs: 5 * 60_000,
  userRefreshMs: 60_000,
  toastAutoHideMs: 7_000,
  commitWarningMs: 3_000,
  searchDebounceMs: 500,
  tableDebounceMs: 500,
  retainTimerMs: 60 * 60 * 1000,
  chunkLoadTimeoutMs: 120_000,
  checkInWarningMs: 30 * 60 * 1000,
  resendWaitMs: 2 * 60 * 1000,
} as const;

/** SPEC §9 text limits. */
export const LIMITS = {
  nameMin: 2,
  nameMax: 64,
  /** A company's VAT/tax id on its invoices. */
  taxIdMax: 40,
  /** A company's billing address: up to 3 street lines of 100 characters, a postal code, a city. */
  addressLines: 3,
  addressLineMax: 100,
  postalCodeMax: 16,
  cityMax: 80,
  invitedNameMin: 3,
  emailMax: 320,
  passwordMin: 8,
  /** Long enough for passphrases; argon2 hashes any length in the same time. */
  passwordMax: 128,
  /** From this length a password is a passphrase: the character-class rules no longer apply. */
  passphraseMin: 16,
  twoFactorCodeLength: 6,
  dataRemovalCodeLength: 5,
  apiKeyLength: 32,
  /** Profile pictures and company logos. */
  uploadMaxBytes: 1024 * 1024,
} as const;

/** Image types accepted for pictures and logos; SVG is left out because it can carry script. */
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type UploadImageType = (typeof UPLOAD_IMAGE_TYPES)[number];

/** SPEC §9 table constants. */
export const TABLE = {
  pageSizes: [5, 10, 20, 50, 100, 200, 1000],
  defaultPageSize: 10,
  numberInputAbovePages: 200,
  pageListCap: 10_000,
  defaultSort: { field: '_id', order: 'ASC' },
} as const;

export const YEARLY_DISCOUNT_PERCENT = 16;
export const BRAND_LOGOS_SHOWN = 4;
export const BRAND_OFFSET_MAX = 3;

/** The platforms a visitor can name on the free app profile review (kept here, without zod, for the form's first render). */
export const APP_REVIEW_PLATFORMS = ['android', 'ios', 'web', 'desktop', 'other'] as const;
export type AppReviewPlatform = (typeof APP_REVIEW_PLATFORMS)[number];

/**
 * An order never paid (its server waits at the payment step) is removed this long after it was
 * placed, with a reminder mail at each of PENDING_ORDER_REMINDER_DAYS before.
 */
export const PENDING_ORDER_CLEANUP_DAYS = 7;
/** Days after the order: one day on, and one day before the removal. */
export const PENDING_ORDER_REMINDER_DAYS = [1, PENDING_ORDER_CLEANUP_DAYS - 1] as const;

/** Where the development mailbox page is served (outside production, without SMTP_URL). */
export const DEV_MAILBOX_PATH = '/dev/mailbox';
