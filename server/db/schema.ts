import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, doublePrecision, index, integer, jsonb, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** bytea as a Buffer: node-postgres gives Buffers, PGlite Uint8Arrays. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
import { AVAILABILITY, BILLING_CYCLES, FEATURE_TYPES, PAYMENT_PROVIDERS, PLAN_TYPES, STATUSES } from '../../src/domain/constants';
import { DEPLOYMENT_STATUSES, SUBSCRIPTION_STATUSES, type PendingPlanChange, type PlanConfig, type SubscriptionQuote } from '../../src/domain/orders';
import type { CardSummary, ReceiptData, ScheduledChange } from '../../src/domain/payments';
import type { AuditTargetType } from '../../src/domain/audit';
import type { SdkSettings } from '../../src/domain/analytics/sdk';
import { TASK_STATUSES, TASK_TYPES, type TaskStep } from '../../src/domain/deploymentTasks';
import { searchText } from './search';

export const statusEnum = pgEnum('status', STATUSES);
export const availabilityEnum = pgEnum('availability', AVAILABILITY);
export const planTypeEnum = pgEnum('plan_type', PLAN_TYPES);
export const featureTypeEnum = pgEnum('feature_type', FEATURE_TYPES);

const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    designation: text('designation'),
    /** The uploaded profile picture (see files), or null. */
    pictureFileId: uuid('picture_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    passwordHash: text('password_hash'),
    /** Sign-in method the account was created with: local or google. */
    via: text('via').notNull().default('local'),
    isAdmin: boolean('is_admin').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /** A lock on the whole account (see signin_failures for the per-source lockout). */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** When the last verification mail went out: resending waits 2 minutes (SPEC §9). */
    verificationSentAt: timestamp('verification_sent_at', { withTimezone: true }),
    /** TOTP secret once two-factor sign-in is on, and the pending one during set-up: sealed with the keyring (secrets.ts). */
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    /** The last 30-second step whose code was accepted: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
    /** Set on the first platform admin when its password was generated: it must be changed first. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Emails are stored lower-cased; the unique index makes sign-up races fail instead of doubling.
  // Admin list (issue 15): each sortable column with the id tie-break, and a trigram index for the
  // `%text%` search (db/search.ts; pg_trgm, created by the migration, loaded into PGlite).
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_first_name_id').on(t.firstName, t.id),
    index('users_last_name_id').on(t.lastName, t.id),
    index('users_created_id').on(t.createdAt, t.id),
    index('users_search_trgm').using('gin', sql`${searchText([t.email, t.firstName, t.lastName])} gin_trgm_ops`),
  ],
);

export const providers = pgTable('providers', {
  id: id(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  status: statusEnum('status').notNull().default('active'),
  createdAt: createdAt(),
});

export const regions = pgTable(
  'regions',
  {
    id: id(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    order: integer('order').notNull(),
    /** Default monthly surcharge in cents; a plan may set its own in plan_regions. */
    priceCents: integer('price_cents').notNull().default(0),
    status: statusEnum('status').notNull().default('active'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('regions_provider_code_unique').on(t.providerId, t.code)],
);

export const sizes = pgTable(
  'sizes',
  {
    id: id(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    code: text('code').notNull(),
    /** Monthly active users the size is built for. */
    value: integer('value').notNull(),
    order: integer('order').notNull(),
    status: statusEnum('status').notNull().default('active'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sizes_provider_code_unique').on(t.providerId, t.code)],
);

export const features = pgTable('features', {
  id: id(),
  code: text('code').notNull().unique(),
  type: featureTypeEnum('type').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  order: integer('order').notNull(),
  /** Default monthly price in cents; a plan may set its own in plan_features. */
  priceCents: integer('price_cents').notNull().default(0),
  status: statusEnum('status').notNull().default('active'),
  createdAt: createdAt(),
});

export const plans = pgTable(
  'plans',
  {
    id: id(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    status: statusEnum('status').notNull().default('active'),
    priority: integer('priority').notNull(),
    type: planTypeEnum('type').notNull().default('regular'),
    basePriceCents: integer('base_price_cents').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('plans_status_priority').on(t.status, t.priority)],
);

/** A plan's regions[]: which regions it offers and at what monthly surcharge. */
export const planRegions = pgTable(
  'plan_regions',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    regionId: uuid('region_id')
      .notNull()
      .references(() => regions.id),
    status: availabilityEnum('status').notNull().default('available'),
    priceCents: integer('price_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.regionId] })],
);

/** A plan's features[]: which features it offers and at what monthly price. */
export const planFeatures = pgTable(
  'plan_features',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id),
    status: availabilityEnum('status').notNull().default('available'),
    priceCents: integer('price_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.featureId] })],
);

export const planGroups = pgTable('plan_groups', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const planGroupPlans = pgTable(
  'plan_group_plans',
  {
    planGroupId: uuid('plan_group_id')
      .notNull()
      .references(() => planGroups.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.planGroupId, t.planId] })],
);

export const discountKindEnum = pgEnum('discount_kind', ['percent', 'fixed']);

/** Discount codes: a percent or a fixed amount off, optionally expiring and limited in uses. */
export const discountCodes = pgTable('discount_codes', {
  id: id(),
  code: text('code').notNull().unique(),
  kind: discountKindEnum('kind').notNull(),
  /** Percent (0–100) for 'percent', cents for 'fixed'. */
  value: integer('value').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  createdAt: createdAt(),
});

/** Sign-in sessions: the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end of life, whatever the activity. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** When the holder last proved who they are (password, code, Google): sensitive changes need it recent. */
    provedAt: timestamp('proved_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Admin area (issue 15): a platform admin viewing the product as a company's admin, read-only.
     * While set, the session acts as that user for reads and every change is refused.
     */
    viewAsUserId: uuid('view_as_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    viewAsCompanyId: uuid('view_as_company_id').references((): AnyPgColumn => companies.id, { onDelete: 'set null' }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/**
 * Failed sign-ins (wrong password or second-factor code) per account and source: a source is a
 * trusted device (its cookie) or an IP address. Reaching the threshold locks that source only, so
 * a stranger cannot keep the owner out of their own account from another device.
 */
export const signinFailures = pgTable(
  'signin_failures',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    failures: integer('failures').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.source] })],
);

/** Fixed-window counters shared by every API process (second-factor checks, discount codes ...). */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_counters_window').on(t.windowStart)],
);

/** Credentials from elsewhere that work once (Google ID tokens): their hash until they expire. */
export const spentCredentials = pgTable('spent_credentials', {
  hash: text('hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const tokenPurposeEnum = pgEnum('token_purpose', ['verify', 'reset', 'unlock', 'magic']);

/** One-time tokens mailed to users; stored hashed, single use, expiring. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: tokenPurposeEnum('purpose').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('auth_tokens_user_purpose').on(t.userId, t.purpose)],
);

/** Mail sent (or, without SMTP, kept here so the embedded default works end to end). */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
});

/** One-time recovery codes for two-factor sign-in, stored hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
);

export const companyRoleEnum = pgEnum('company_role', ['admin', 'viewer']);

/** Companies (workspaces, SPEC §3). */
/**
 * Uploaded images (profile pictures, company logos), served at /api/v1/files/{id}. A new upload is
 * a new row, so a file's URL never changes content and can be cached for good.
 */
export const files = pgTable('files', {
  id: id(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text('name').notNull(),
    size: text('size'),
    /** The uploaded logo (see files), or null. */
    logoFileId: uuid('logo_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** ISO 3166-1 alpha-2 billing country: sets the tax on the company's orders. */
    billingCountry: text('billing_country'),
    /** Plan group giving this company its own plan list; the public list when null. */
    planGroupId: uuid('plan_group_id').references(() => planGroups.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Admin company list: sortable columns and the search's trigrams (name, then the id as text).
  (t) => [
    index('companies_name_id').on(t.name, t.id),
    index('companies_size_id').on(sql`coalesce(${t.size}, '')`, t.id),
    index('companies_created_id').on(t.createdAt, t.id),
    index('companies_search_trgm').using('gin', sql`${searchText([t.name, sql`${t.id}::text`])} gin_trgm_ops`),
  ],
);

export const companyMembers = pgTable(
  'company_members',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: companyRoleEnum('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] }), index('company_members_user').on(t.userId)],
);

/** Projects, kept per company; each company starts with a default one. */
export const projects = pgTable(
  'projects',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('projects_company').on(t.companyId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: companyRoleEnum('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('invitations_company').on(t.companyId)],
);

/** The mailed 5-digit code that confirms a company deletion: hashed, single use, expiring. */
export const companyDeletionCodes = pgTable('company_deletion_codes', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Counted actions for limits that must survive a restart and hold across requests: invitations
 * sent, deletion codes asked for and wrong ones typed. `scope` names the action and what it is
 * counted per ('invitation:company'); `key` is that company's or user's id.
 */
export const limitEvents = pgTable(
  'limit_events',
  {
    id: id(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('limit_events_scope_key_created').on(t.scope, t.key, t.createdAt)],
);

export const idempotencyStatusEnum = pgEnum('idempotency_status', ['in_flight', 'done']);

/**
 * Idempotency keys of retried POSTs: the first request's answer, replayed to a retry with the same
 * key and body (see services/idempotency.ts). One row per user and key.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** 'POST /companies': a key is bound to the call it was first used with. */
    request: text('request').notNull(),
    /** SHA-256 of the canonical JSON of the request's body and query. */
    requestHash: text('request_hash').notNull(),
    status: idempotencyStatusEnum('status').notNull().default('in_flight'),
    /** Which request holds an in-flight claim; a retry that takes over a dead claim changes it. */
    owner: uuid('owner').notNull().default(sql`gen_random_uuid()`),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('idempotency_keys_user_key').on(t.userId, t.key)],
);

export const deploymentStatusEnum = pgEnum('deployment_status', DEPLOYMENT_STATUSES);
export const billingCycleEnum = pgEnum('billing_cycle', BILLING_CYCLES);
export const paymentVendorEnum = pgEnum('payment_vendor', PAYMENT_PROVIDERS);
export const subscriptionStatusEnum = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);

/**
 * Servers (SPEC §3 Deployment). `planConfig` holds the chosen options as ordered (region, size,
 * features, provider); `status` follows the SPEC §3 catalogue: 'provisioned' while a paid order
 * waits for its payment, 'initializing' once the order is settled and awaits provisioning.
 */
export const deployments = pgTable(
  'deployments',
  {
    id: id(),
    name: text('name').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    planCode: text('plan_code').notNull(),
    planConfig: jsonb('plan_config').$type<PlanConfig>().notNull(),
    paymentCycle: billingCycleEnum('payment_cycle').notNull(),
    /** flags.free: the server runs on a free plan. */
    free: boolean('free').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    status: deploymentStatusEnum('status').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deployments_company_project').on(t.companyId, t.projectId),
    // Admin server list: its sortable columns (its search spans the company too: no index serves it).
    index('deployments_name_id').on(t.name, t.id),
    index('deployments_plan_code_id').on(t.planCode, t.id),
    index('deployments_created_id').on(t.createdAt, t.id),
  ],
);

/**
 * One subscription per server: what it pays (the quote at order or last change, in decimal
 * strings) and its state at the payment vendor. Paddle's webhooks move it; `lastEventAt` is the
 * occurred_at of the last event applied, so an older event delivered late never moves it back.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .unique()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    vendor: paymentVendorEnum('vendor').notNull(),
    vendorSubscriptionId: text('vendor_subscription_id').unique(),
    vendorCustomerId: text('vendor_customer_id'),
    status: subscriptionStatusEnum('status').notNull(),
    cycle: billingCycleEnum('cycle').notNull(),
    /** The price per cycle and its lines, as the engine priced them (SubscriptionQuote). */
    quote: jsonb('quote').$type<SubscriptionQuote>().notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    nextBilledAt: timestamp('next_billed_at', { withTimezone: true }),
    /** Paddle's scheduled_change (a pause or cancellation at the period end), or null. */
    scheduledChange: jsonb('scheduled_change').$type<ScheduledChange | null>(),
    pastDueSince: timestamp('past_due_since', { withTimezone: true }),
    /** The card of the last completed payment, for the billing page (never the number). */
    card: jsonb('card').$type<CardSummary | null>(),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    /**
     * The vendor transaction our checkout opened for the payment due (Paddle's, or the stand-in's):
     * notifications are matched by it, and the checkout reuses it instead of opening another.
     */
    checkoutTransactionId: text('checkout_transaction_id').unique(),
    /** A free server's change to a paid plan, applied to the server only once its payment is confirmed. */
    pendingChange: jsonb('pending_change').$type<PendingPlanChange | null>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('subscriptions_company_status').on(t.companyId, t.status)],
);

/** A discount code counted for a subscription: once each, whatever plan changes follow. */
export const discountUses = pgTable(
  'discount_uses',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.code] })],
);

/** What was charged (Paddle's completed transactions): amounts are decimal strings. */
export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    deploymentId: uuid('deployment_id').references(() => deployments.id, { onDelete: 'set null' }),
    vendorTransactionId: text('vendor_transaction_id').notNull().unique(),
    invoiceNumber: text('invoice_number'),
    status: text('status').notNull(),
    origin: text('origin'),
    currency: text('currency').notNull(),
    subtotal: numeric('subtotal', { precision: 14, scale: 2 }).notNull(),
    discount: numeric('discount', { precision: 14, scale: 2 }).notNull(),
    tax: numeric('tax', { precision: 14, scale: 2 }).notNull(),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    billedAt: timestamp('billed_at', { withTimezone: true }).notNull(),
    /** Lines, customer email and card summary: what the receipt shows. */
    receipt: jsonb('receipt').$type<ReceiptData>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('transactions_company_billed').on(t.companyId, t.billedAt)],
);

/** Every verified Paddle notification, stored once (event_id) before it is applied. */
export const paymentEvents = pgTable('payment_events', {
  id: id(),
  eventId: text('event_id').notNull().unique(),
  eventType: text('event_type').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  /** applied, stale (older than the state it would move), unmatched (no subscription of ours) or ignored. */
  outcome: text('outcome'),
});

/**
 * The audit log: who did what to which target, when, from where, and the fields before and after.
 * Written by services in the transaction of the change (`server/services/audit.ts`); no foreign
 * keys, so history outlives what it names; a trigger refuses UPDATE and DELETE.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').$type<AuditTargetType>().notNull(),
    targetId: text('target_id').notNull(),
    companyId: uuid('company_id'),
    ip: text('ip'),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
  },
  (t) => [
    index('audit_logs_at').on(t.at, t.id),
    index('audit_logs_target').on(t.targetType, t.targetId),
    index('audit_logs_actor').on(t.actorId, t.at),
    index('audit_logs_company').on(t.companyId, t.at),
    // Admin log list: sortable columns (as the service sorts them) and the search's trigrams.
    index('audit_logs_action_id').on(t.action, t.id),
    index('audit_logs_target_type_id').on(t.targetType, t.id),
    index('audit_logs_actor_email_id').on(sql`coalesce(${t.actorEmail}, '')`, t.id),
    index('audit_logs_search_trgm').using('gin', sql`${searchText([t.action, t.actorEmail, t.targetId])} gin_trgm_ops`),
  ],
);

/* ---- Running servers (issue 14): deployment tasks, timeline, runtime state, backups, MAU, mock cloud ---- */

export const taskTypeEnum = pgEnum('task_type', TASK_TYPES);
export const taskStatusEnum = pgEnum('task_status', TASK_STATUSES);

/**
 * Deployment tasks (SPEC §3): every piece of work on a server. `seq` orders a server's tasks (they
 * run one at a time, in that order); `steps` is the log of steps done, so a task resumed after a
 * worker died skips what is already done. The queue (pg-boss) only carries wake-ups.
 */
export const deploymentTasks = pgTable(
  'deployment_tasks',
  {
    id: id(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    type: taskTypeEnum('type').notNull(),
    status: taskStatusEnum('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The platform admin the task is assigned to (SPEC §3), set only from the admin area. */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** The worker (process) that holds it or held it last; a claim never touches the assignee. */
    claimedBy: text('claimed_by'),
    /** What the task needs (the backup to restore, the domain to set...). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    steps: jsonb('steps').$type<TaskStep[]>().notNull().default([]),
    progress: integer('progress').notNull().default(0),
    lastError: text('last_error'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedByEmail: text('requested_by_email'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deployment_tasks_deployment_seq').on(t.deploymentId, t.seq),
    index('deployment_tasks_open').on(t.status).where(sql`status in ('queued', 'running')`),
    // Admin task list: its sortable columns.
    index('deployment_tasks_created_id').on(t.createdAt, t.id),
    index('deployment_tasks_attempts_id').on(t.attempts, t.id),
  ],
);

/** A server's timeline: every status change and every task's queuing, start, retry and end. */
export const deploymentEvents = pgTable(
  'deployment_events',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    fromStatus: deploymentStatusEnum('from_status'),
    toStatus: deploymentStatusEnum('to_status'),
    taskId: uuid('task_id'),
    taskType: taskTypeEnum('task_type'),
    message: text('message'),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
  },
  (t) => [index('deployment_events_deployment_at').on(t.deploymentId, t.at)],
);

/** What a server is at the provider: its machine, address, domain and SSL, health, deletion dates. */
export const deploymentRuntime = pgTable('deployment_runtime', {
  deploymentId: uuid('deployment_id')
    .primaryKey()
    .references(() => deployments.id, { onDelete: 'cascade' }),
  machineId: text('machine_id'),
  url: text('url'),
  defaultDomain: text('default_domain'),
  customDomain: text('custom_domain'),
  sslState: text('ssl_state').notNull().default('none'),
  /** The TXT value proving ownership of the custom domain (random, not a secret). */
  verificationToken: text('verification_token'),
  domainVerifiedAt: timestamp('domain_verified_at', { withTimezone: true }),
  healthState: text('health_state').notNull().default('unknown'),
  healthCheckedAt: timestamp('health_checked_at', { withTimezone: true }),
  terminationScheduledAt: timestamp('termination_scheduled_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  restorableUntil: timestamp('restorable_until', { withTimezone: true }),
  /** The snapshot taken before the machine of a deleted server was destroyed. */
  finalSnapshotId: text('final_snapshot_id'),
  updatedAt: updatedAt(),
});

export const deploymentBackups = pgTable(
  'deployment_backups',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'nightly' | 'manual' | 'final'>().notNull(),
    status: text('status').$type<'pending' | 'completed' | 'failed'>().notNull().default('pending'),
    snapshotId: text('snapshot_id'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    taskId: uuid('task_id'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('deployment_backups_deployment').on(t.deploymentId, t.createdAt), uniqueIndex('deployment_backups_task').on(t.taskId)],
);

/** SPEC §3 mau history: one row per server and month, updated by the sampling job. */
export const mauHistory = pgTable(
  'mau_history',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    used: integer('used').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull().defaultNow(),
    /** The highest MAU_WARNING_SHARES mailed for this month (0: none), so each warning goes once. */
    warnedShare: integer('warned_share').notNull().default(0),
  },
  (t) => [uniqueIndex('mau_history_deployment_month').on(t.deploymentId, t.startsAt)],
);

/**
 * The mock-cloud provider's own state (it stands for a cloud, so no foreign keys to ours): its
 * machines, its snapshots, and every call it answered. A call carries a request key; the same key
 * twice is answered from the first result, as real cloud APIs do with request ids.
 */
export const mockCloudMachines = pgTable('mock_cloud_machines', {
  id: text('id').primaryKey(),
  deploymentId: uuid('deployment_id').notNull(),
  status: text('status').$type<'booting' | 'running' | 'paused' | 'destroyed'>().notNull(),
  region: text('region'),
  size: integer('size'),
  domain: text('domain'),
  ssl: boolean('ssl').notNull().default(false),
  readyAt: timestamp('ready_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
});

export const mockCloudSnapshots = pgTable('mock_cloud_snapshots', {
  id: text('id').primaryKey(),
  machineId: text('machine_id').notNull(),
  deploymentId: uuid('deployment_id').notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
});

export const mockCloudCalls = pgTable(
  'mock_cloud_calls',
  {
    id: id(),
    op: text('op').notNull(),
    deploymentId: uuid('deployment_id').notNull(),
    requestKey: text('request_key').notNull(),
    /** applied (did the work), replayed (same request key: answered from the first), failed (simulated failure). */
    outcome: text('outcome').$type<'applied' | 'replayed' | 'failed'>().notNull(),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mock_cloud_calls_deployment_op').on(t.deploymentId, t.op), uniqueIndex('mock_cloud_calls_applied_key').on(t.requestKey).where(sql`outcome = 'applied'`)],
);

// ---------------------------------------------------------------------------------------------
// Analytics (issue 16): each deployment's own analytics dashboard. One tenant per deployment;
// everything below hangs off a tenant or one of its apps and goes with it (cascade).
// ---------------------------------------------------------------------------------------------

/** One analytics dashboard per deployment, made by createTenant when the server is provisioned. */
export const analyticsTenants = pgTable('analytics_tenants', {
  id: id(),
  deploymentId: uuid('deployment_id')
    .notNull()
    .unique()
    .references(() => deployments.id, { onDelete: 'cascade' }),
  /** How long raw events are kept (a user's export and purge read them); aggregates are kept for good. */
  rawRetentionDays: integer('raw_retention_days').notNull().default(90),
  createdAt: createdAt(),
});

/** The dashboard versions a tenant has run (version history screen). */
export const analyticsVersions = pgTable(
  'analytics_versions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.version] })],
);

/**
 * Dashboard users: company users mapped in through the server sign-in link. Global admins see and
 * manage everything; the others are admin or user of some apps (analytics_app_members).
 */
export const analyticsMembers = pgTable(
  'analytics_members',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    globalAdmin: boolean('global_admin').notNull().default(false),
    locked: boolean('locked').notNull().default(false),
    /** Time ban: refused until then. */
    bannedUntil: timestamp('banned_until', { withTimezone: true }),
    /** The dashboard's own password (user settings), separate from the portal account's. */
    passwordHash: text('password_hash'),
    /** SHA-256 of the 32-character API key (generated, unique per tenant); the key itself is shown once. */
    apiKeyHash: text('api_key_hash'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('analytics_members_tenant_user').on(t.tenantId, t.userId), uniqueIndex('analytics_members_api_key').on(t.tenantId, t.apiKeyHash)],
);

/** Per-app limit overrides; null fields take the defaults of SPEC §9 (500, 100, 1000). */
export interface AnalyticsLimits {
  eventKeys?: number;
  segmentsPerEvent?: number;
  valuesPerSegment?: number;
}

export const analyticsApps = pgTable(
  'analytics_apps',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default('mobile'),
    category: text('category'),
    /** The SDKs' app_key: unique across tenants, since it alone names the app (and tenant) at /i. */
    key: text('key').notNull().unique(),
    timezone: text('timezone').notNull().default('UTC'),
    iconFileId: uuid('icon_file_id').references(() => files.id, { onDelete: 'set null' }),
    checksumSalt: text('checksum_salt'),
    createdBy: uuid('created_by').references(() => analyticsMembers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastDataAt: timestamp('last_data_at', { withTimezone: true }),
    locked: boolean('locked').notNull().default(false),
    limits: jsonb('limits').$type<AnalyticsLimits>().notNull().default({}),
    /** The SDK behaviour settings its admins set, answered at /o/sdk (keys the SDKs read; none by default). */
    sdkSettings: jsonb('sdk_settings').$type<SdkSettings>().notNull().default({}),
  },
  (t) => [index('analytics_apps_tenant').on(t.tenantId)],
);

export const analyticsAppRoleEnum = pgEnum('analytics_app_role', ['admin', 'user']);

export const analyticsAppMembers = pgTable(
  'analytics_app_members',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => analyticsMembers.id, { onDelete: 'cascade' }),
    role: analyticsAppRoleEnum('role').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.memberId] }), index('analytics_app_members_member').on(t.memberId)],
);

/** Event definitions, made on first sight of a key and edited in the edit event drawer. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name'),
    description: text('description'),
    /** Hidden events are still recorded, only not listed. */
    visible: boolean('visible').notNull().default(true),
    countName: text('count_name'),
    sumName: text('sum_name'),
    durName: text('dur_name'),
    /** Segments no longer recorded (their stored data was purged when they were omitted). */
    omittedSegments: jsonb('omitted_segments').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.key] })],
);

/** The known values of each event segment: what the segment and value limits count. */
export const analyticsSegmentValues = pgTable(
  'analytics_segment_values',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    segment: text('segment').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.eventKey, t.segment, t.value] })],
);

export const analyticsEventGroups = pgTable(
  'analytics_event_groups',
  {
    id: id(),
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    eventKeys: jsonb('event_keys').$type<string[]>().notNull(),
    visible: boolean('visible').notNull().default(true),
    countName: text('count_name'),
    sumName: text('sum_name'),
    durName: text('dur_name'),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_event_groups_app').on(t.appId)],
);

/** Events overview tiles: an event and one of its properties (count, sum, dur), at most 12 per app. */
export const analyticsOverviewTiles = pgTable(
  'analytics_overview_tiles',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    eventKey: text('event_key').notNull(),
    property: text('property').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.position] }), uniqueIndex('analytics_overview_tiles_pair').on(t.appId, t.eventKey, t.property)],
);

/** Sessions per app and day, the day taken in the app's time zone. */
export const analyticsDailySessions = pgTable(
  'analytics_daily_sessions',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    sessions: integer('sessions').notNull().default(0),
    newUsers: integer('new_users').notNull().default(0),
    /** Seconds. */
    duration: doublePrecision('duration').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day] })],
);

/** Events per app, key and day; segment '' and value '' hold the totals, others one segment value. */
/** Views (the SDKs' `[CLY]_view` events) per day: visits (`visit=1`) and their summed duration in seconds. */
export const analyticsDailyViews = pgTable(
  'analytics_daily_views',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    view: text('view').notNull(),
    day: text('day').notNull(),
    visits: doublePrecision('visits').notNull().default(0),
    duration: doublePrecision('duration').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.view, t.day] }), index('analytics_daily_views_app_day').on(t.appId, t.day)],
);

export const analyticsDailyEvents = pgTable(
  'analytics_daily_events',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    day: text('day').notNull(),
    segment: text('segment').notNull().default(''),
    value: text('value').notNull().default(''),
    count: doublePrecision('count').notNull().default(0),
    sum: doublePrecision('sum').notNull().default(0),
    dur: doublePrecision('dur').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.eventKey, t.day, t.segment, t.value] }), index('analytics_daily_events_app_day').on(t.appId, t.day)],
);

/** Each device that sent data in a month (the app's time zone): the source of MAU. */
export const analyticsMonthlyDevices = pgTable(
  'analytics_monthly_devices',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    deviceId: text('device_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.month, t.deviceId] })],
);

/** App users (devices): first and last seen, their session totals, metrics and user details. */
export const analyticsAppUsers = pgTable(
  'analytics_app_users',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    sessions: integer('sessions').notNull().default(0),
    totalDuration: doublePrecision('total_duration').notNull().default(0),
    metrics: jsonb('metrics').$type<Record<string, string>>().notNull().default({}),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.appId, t.deviceId] })],
);

/** Raw events, kept for the tenant's retention: a user's export and purge read them. */
export const analyticsRawEvents = pgTable(
  'analytics_raw_events',
  {
    id: id(),
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    key: text('key').notNull(),
    count: doublePrecision('count').notNull(),
    sum: doublePrecision('sum'),
    dur: doublePrecision('dur'),
    segmentation: jsonb('segmentation').$type<Record<string, string>>(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('analytics_raw_events_device').on(t.appId, t.deviceId), index('analytics_raw_events_received').on(t.receivedAt)],
);

/** Hashes of requests already applied, so an SDK's retry is counted once (kept a day). */
export const analyticsRequestHashes = pgTable(
  'analytics_request_hashes',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.hash] }), index('analytics_request_hashes_received').on(t.receivedAt)],
);

/** What the limits dropped, per app, day and limit (event_keys, segments, segment_values). */
export const analyticsDrops = pgTable(
  'analytics_drops',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day, t.kind] })],
);

/** An API endpoint a token may call: a path pattern and patterns its query parameters must match. */
export interface AnalyticsTokenEndpoint {
  path: string;
  params: Record<string, string>;
}

export const analyticsTokens = pgTable(
  'analytics_tokens',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => analyticsMembers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose').notNull(),
    /** Empty: every endpoint. */
    endpoints: jsonb('endpoints').$type<AnalyticsTokenEndpoint[]>().notNull().default([]),
    /** Null: all apps. */
    appIds: jsonb('app_ids').$type<string[] | null>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    multiUse: boolean('multi_use').notNull().default(true),
    spentAt: timestamp('spent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_tokens_tenant').on(t.tenantId)],
);

/** The tenant's background jobs (clearing, exports, top events) and their state; an export keeps its file. */
export const analyticsJobs = pgTable(
  'analytics_jobs',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    appId: uuid('app_id').references(() => analyticsApps.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    result: jsonb('result').$type<unknown>(),
    createdBy: uuid('created_by').references(() => analyticsMembers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('analytics_jobs_tenant').on(t.tenantId, t.createdAt)],
);

/**
 * The report manager's email reports: what to send (metrics of some apps), to whom, and when
 * (daily, weekly or monthly at a time of day in a time zone). `next_run_at` is the next due time,
 * worked out when the report is saved and after each run; the reports schedule sends those due.
 */
export const analyticsReports = pgTable(
  'analytics_reports',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => analyticsTenants.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    metrics: jsonb('metrics').$type<string[]>().notNull(),
    appIds: jsonb('app_ids').$type<string[]>().notNull(),
    emails: jsonb('emails').$type<string[]>().notNull(),
    frequency: text('frequency').notNull(),
    hour: integer('hour').notNull(),
    minute: integer('minute').notNull(),
    timezone: text('timezone').notNull(),
    /** Weekly: 1 (Monday) to 7 (Sunday). */
    dayOfWeek: integer('day_of_week'),
    /** Monthly: 1 to 28, so that every month has it. */
    dayOfMonth: integer('day_of_month'),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => analyticsMembers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('analytics_reports_tenant').on(t.tenantId), index('analytics_reports_due').on(t.enabled, t.nextRunAt)],
);

// ----- Tools (SPEC §2 /tools/... pages) -----------------------------------------------------------

/** Requests for a free review of an app's analytics set-up (/tools/free-app-profile-review). */
export const appProfileReviews = pgTable(
  'app_profile_reviews',
  {
    id: id(),
    appName: text('app_name').notNull(),
    platform: text('platform').notNull(),
    storeUrl: text('store_url').notNull(),
    email: text('email').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('app_profile_reviews_created').on(t.createdAt, t.id), index('app_profile_reviews_email').on(t.email)],
);

// ----- Admin jobs (issue 15) ---------------------------------------------------------------------

/**
 * Schedules an admin paused: pg-boss forgets an unscheduled cron, so it is kept here for resume,
 * and the worker's start skips these names instead of scheduling them again.
 */
export const pausedSchedules = pgTable('paused_schedules', {
  name: text('name').primaryKey(),
  cron: text('cron').notNull(),
  timezone: text('timezone').notNull(),
  pausedBy: uuid('paused_by').references(() => users.id, { onDelete: 'set null' }),
  pausedAt: timestamp('paused_at', { withTimezone: true }).notNull().defaultNow(),
});
