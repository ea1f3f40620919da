// Analytics: each deployment's own dashboard (tenants, members, apps, events, aggregates, tokens, jobs, reports).
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SdkSettings } from '../../../analytics/domain/sdk';
import { id, createdAt, updatedAt } from './columns';
import { files, users } from './accounts';
import { deployments } from './servers';

// ---------------------------------------------------------------------------------------------
// Analytics: each deployment's own analytics dashboard. One tenant per deployment;
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
  /** SHA-256 of the key the health check sends to the tenant's SDK endpoint (a probe, never data). */
  healthKeyHash: text('health_key_hash').unique(),
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

/** Events per app, key and day; segment '' and value '' hold the totals, others one segment value. */
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

/** One raw event as kept and exported: the SDK's fields and its instant (ISO 8601, UTC). */
export interface AnalyticsRawEvent {
  key: string;
  count: number;
  sum: number | null;
  dur: number | null;
  segmentation: Record<string, string> | null;
  timestamp: string;
}

/**
 * Raw events, kept for the tenant's retention (a user's export and purge read them): one row per
 * accepted SDK request holding its events in order, so ingestion writes one row a request, not
 * one per event. `first_at`/`last_at` bound the events' instants for clearing and retention.
 */
export const analyticsRawRequests = pgTable(
  'analytics_raw_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: uuid('app_id')
      .notNull()
      .references(() => analyticsApps.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    events: jsonb('events').$type<AnalyticsRawEvent[]>().notNull(),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('analytics_raw_requests_device').on(t.appId, t.deviceId), index('analytics_raw_requests_first').on(t.firstAt)],
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
