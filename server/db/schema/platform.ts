// Platform: shared by every feature (mail outbox, rate and limit counters, idempotency keys, audit log, tools, admin jobs).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AuditTargetType } from '../../../src/domain/audit';
import { searchText } from '../search';
import { id, createdAt } from './columns';
import { users } from './accounts';

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

// ----- Admin jobs --------------------------------------------------------------------------------

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
