// Accounts: users and their sign-in (sessions, tokens, two-factor, passkeys), uploaded files, companies, members, projects, invitations.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { COMPANY_ROLES } from '../../../src/domain/constants';
import type { PendingConfiguration } from '../../../src/domain/orders/schemas';
import { DEFAULT_MAU_ALERTS, type MauAlertSettings } from '../../../src/domain/usage/mauRule';
import { searchText } from '../search';
import { bytea, id, createdAt, updatedAt } from './columns';
import { planGroups } from './catalogue';

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
    /** The pre-login wizard's order given at sign-up, until the `continue` step submits it. */
    pendingOrder: jsonb('pending_order').$type<PendingConfiguration | null>(),
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
  // Admin list: each sortable column with the id tie-break, and a trigram index for the
  // `%text%` search (db/search.ts; pg_trgm, created by the migration, loaded into PGlite).
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_first_name_id').on(t.firstName, t.id),
    index('users_last_name_id').on(t.lastName, t.id),
    index('users_created_id').on(t.createdAt, t.id),
    index('users_search_trgm').using('gin', sql`${searchText([t.email, t.firstName, t.lastName])} gin_trgm_ops`),
  ],
);

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
     * Admin area: a platform admin viewing the product as a company's admin, read-only.
     * While set, the session acts as that user for reads and every change is refused.
     */
    viewAsUserId: uuid('view_as_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    viewAsCompanyId: uuid('view_as_company_id').references((): AnyPgColumn => companies.id, { onDelete: 'set null' }),
    /**
     * A dashboard session at a server's own address: valid there only, for that server's dashboard
     * (null: a portal session). No foreign key: servers are declared after accounts, and a
     * server's row is never deleted while it has a dashboard.
     */
    serverId: uuid('server_id'),
    /** SHA-256 of the signed sign-in link this session was made from: each link makes one session. */
    signInLinkHash: text('sign_in_link_hash').unique(),
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

/**
 * Passkeys (WebAuthn credentials): the public key and signature counter of each authenticator a
 * user registered. The credential id is the authenticator's, unique across all accounts.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url, as the browser sends it. */
    credentialId: text('credential_id').notNull(),
    /** COSE public key. */
    publicKey: bytea('public_key').notNull(),
    /** The authenticator's signature counter (uint32); a response must carry a higher one. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_unique').on(t.credentialId), index('passkeys_user').on(t.userId)],
);

export const passkeyPurposeEnum = pgEnum('passkey_purpose', ['register', 'signin']);

/**
 * WebAuthn challenges we issued: only their SHA-256, deleted by the statement that accepts one, so
 * each works once and only until it expires. Registration ones name the user they were made for.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: passkeyPurposeEnum('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('passkey_challenges_expires').on(t.expiresAt)],
);

export const companyRoleEnum = pgEnum('company_role', COMPANY_ROLES);

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

/** Companies (workspaces, SPEC §3). */
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
    /** VAT/tax id the company gives for its invoices; null when not given. */
    taxId: text('tax_id'),
    /** The billing address on its invoices: street lines (newline between them), postal code and city; null when not given. */
    billingAddress: text('billing_address'),
    billingPostalCode: text('billing_postal_code'),
    billingCity: text('billing_city'),
    /** Plan group giving this company its own plan list; the public list when null. */
    planGroupId: uuid('plan_group_id').references(() => planGroups.id, { onDelete: 'set null' }),
    /** Which MAU alerts the company's admins get; all on by default. */
    mauAlerts: jsonb('mau_alerts').$type<MauAlertSettings>().notNull().default(DEFAULT_MAU_ALERTS),
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
