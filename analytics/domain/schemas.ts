import { z } from 'zod';
import { emailSchema, noHtml } from '../../src/domain/validation';
import { APP_ROLES, APP_TYPES, CLEAR_PERIODS, DROP_KINDS, JOB_KINDS, JOB_STATUSES, MAX_OVERVIEW_TILES, MAX_REPORT_DAY_OF_MONTH, MAX_REPORT_EMAILS, MAX_TOKEN_ENDPOINTS, REPORT_FREQUENCIES, REPORT_METRICS, TILE_PROPERTIES, TOKEN_EXPIRY_UNITS, TOP_EVENT_WINDOWS } from './constants';
import { isTimeZone } from './rules';

/**
 * Wire contracts of each deployment's analytics dashboard: `/api/v1/analytics/{deploymentId}/...`.
 * Request schemas validate the routes (and later the screens' forms); answer schemas are what leaves.
 */

const text = (max: number) => z.string().trim().max(max, 'validation.invalid').refine(noHtml, 'validation.noHtml');
const name = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(100, 'validation.invalid').refine(noHtml, 'validation.noHtml');
const uuid = z.uuid({ error: 'validation.invalid' });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.invalid');
const iso = z.string();
/** An instant sent by a client: ISO 8601 with its offset, so 'Infinity' and friends never reach `new Date`. */
const instant = z.iso.datetime({ offset: true, error: 'validation.invalid' });

export const tenantParamsSchema = z.object({ deploymentId: uuid });
export const appParamsSchema = tenantParamsSchema.extend({ appId: uuid });
export const memberParamsSchema = tenantParamsSchema.extend({ memberId: uuid });
export const tokenParamsSchema = tenantParamsSchema.extend({ tokenId: uuid });
export const jobParamsSchema = tenantParamsSchema.extend({ jobId: uuid });
export const reportParamsSchema = tenantParamsSchema.extend({ reportId: uuid });
export const groupParamsSchema = appParamsSchema.extend({ groupId: uuid });
export const eventParamsSchema = appParamsSchema.extend({ key: z.string().min(1).max(200) });
export const appUserParamsSchema = appParamsSchema.extend({ deviceId: z.string().min(1).max(200) });

const memberRef = z.object({ _id: z.string(), fullName: z.string() });
export const limitsSchema = z.object({
  eventKeys: z.number().int().min(1).max(100_000).optional(),
  segmentsPerEvent: z.number().int().min(1).max(1_000).optional(),
  valuesPerSegment: z.number().int().min(1).max(100_000).optional(),
});

// ----- applications -----------------------------------------------------------------------------

export const appSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  category: z.string().nullable(),
  key: z.string(),
  timezone: z.string(),
  iconFileId: z.string().nullable(),
  /** Shown to the app's admins only: null for everyone else, set or not. */
  checksumSalt: z.string().nullable(),
  createdBy: memberRef.nullable(),
  createdAt: iso,
  updatedAt: iso,
  lastDataAt: iso.nullable(),
  locked: z.boolean(),
  limits: limitsSchema,
  globalAdmins: z.array(memberRef),
  admins: z.array(memberRef),
  users: z.array(memberRef),
});
export type AppDto = z.infer<typeof appSchema>;

/**
 * The app's fields without defaults: a partial update built on them leaves out what it does not
 * name (a `.partial()` of a schema with defaults would fill them in and reset the stored values).
 */
const appFields = z.object({
  name,
  type: z.enum(APP_TYPES),
  category: text(64).nullable().optional(),
  timezone: z.string().refine(isTimeZone, 'validation.invalid'),
  checksumSalt: z.string().trim().max(128, 'validation.invalid').nullable().optional(),
  /** The app's current icon, or null to remove it; a new icon comes only through the icon upload. */
  iconFileId: uuid.nullable().optional(),
  locked: z.boolean().optional(),
  limits: limitsSchema.optional(),
});
export const appInputSchema = appFields.extend({ type: appFields.shape.type.default('mobile'), timezone: appFields.shape.timezone.default('UTC') });
export type AppInput = z.infer<typeof appInputSchema>;
export const appUpdateSchema = appFields.partial();
export type AppUpdate = z.infer<typeof appUpdateSchema>;

export const clearAppSchema = z.object({ period: z.enum(CLEAR_PERIODS) });
export type ClearPeriod = ClearAppInput['period'];
export type ClearAppInput = z.infer<typeof clearAppSchema>;

// ----- dashboard users --------------------------------------------------------------------------

export const memberSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  fullName: z.string(),
  username: z.string(),
  email: z.string(),
  globalAdmin: z.boolean(),
  locked: z.boolean(),
  bannedUntil: iso.nullable(),
  lastLoginAt: iso.nullable(),
  createdAt: iso,
  hasApiKey: z.boolean(),
  adminOf: z.array(z.string()),
  userOf: z.array(z.string()),
});
export type MemberDto = z.infer<typeof memberSchema>;

/** A user of the company owning the server who is not a dashboard user yet (the add user form's choices). */
export const memberCandidateSchema = z.object({ userId: z.string(), fullName: z.string(), email: z.string() });
export type MemberCandidate = z.infer<typeof memberCandidateSchema>;

/** A dashboard user's fields without defaults (see appFields): the update is a partial of these. */
const memberFields = z.object({
  /** A user of the company owning the server. */
  userId: uuid,
  globalAdmin: z.boolean(),
  adminOf: z.array(uuid).max(500),
  userOf: z.array(uuid).max(500),
  locked: z.boolean().optional(),
  bannedUntil: instant.nullable().optional(),
});
export const memberInputSchema = memberFields.extend({ globalAdmin: memberFields.shape.globalAdmin.default(false), adminOf: memberFields.shape.adminOf.default([]), userOf: memberFields.shape.userOf.default([]) });
export type MemberInput = z.infer<typeof memberInputSchema>;
export const memberUpdateSchema = memberFields.omit({ userId: true }).partial();
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/** The landing of the dashboard: the server sign-in link's signed claims when it came through one. */
export const openInputSchema = z.object({
  link: z.object({ user: uuid, server: uuid, exp: z.string().regex(/^\d{1,12}$/, 'validation.invalid'), sig: z.string().min(1).max(200) }).optional(),
});
export type OpenInput = z.infer<typeof openInputSchema>;
/** POST /analytics/{id}/signin at the server's own address: the sign-in link is required there. */
export const serverSignInBodySchema = z.object({ link: openInputSchema.shape.link.unwrap() });

/** What the server sign-in link opens: the dashboard as the signed-in user sees it. */
export const dashboardSessionSchema = z.object({
  tenantId: z.string(),
  deploymentId: z.string(),
  version: z.string(),
  /** What the server's state allows (analyticsAccessFor): everything, or reading the data kept (paused, overdue). */
  access: z.enum(['full', 'read']),
  member: memberSchema,
  apps: z.array(appSchema),
});
export type DashboardSession = z.infer<typeof dashboardSessionSchema>;

// ----- user settings ----------------------------------------------------------------------------

export const passwordChangeSchema = z.object({
  oldPassword: z.string().max(128).optional(),
  newPassword: z.string({ error: 'validation.required' }).min(8, 'validation.passwordLength').max(128, 'validation.passwordLength'),
  confirmation: z.string({ error: 'validation.required' }),
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;
export const apiKeyAnswerSchema = z.object({ apiKey: z.string() });

// ----- events -----------------------------------------------------------------------------------

export const eventSchema = z.object({
  key: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  visible: z.boolean(),
  countName: z.string().nullable(),
  sumName: z.string().nullable(),
  durName: z.string().nullable(),
  omittedSegments: z.array(z.string()),
  segments: z.array(z.string()),
});
export type EventDto = z.infer<typeof eventSchema>;

export const eventUpdateSchema = z.object({
  name: text(100).nullable().optional(),
  description: text(500).nullable().optional(),
  visible: z.boolean().optional(),
  countName: text(50).nullable().optional(),
  sumName: text(50).nullable().optional(),
  durName: text(50).nullable().optional(),
  omittedSegments: z.array(z.string().max(200)).max(1000).optional(),
  /** Omitting segments purges their stored data: the screen confirms first and says so here. */
  confirmPurge: z.boolean().optional(),
});
export type EventUpdate = z.infer<typeof eventUpdateSchema>;

export const periodQuerySchema = z.object({ from: day, to: day });
export const seriesQuerySchema = periodQuerySchema.extend({ segment: z.string().max(200).optional() });
const totals = z.object({ count: z.number(), sum: z.number(), dur: z.number() });
export const eventSeriesSchema = z.object({
  key: z.string(),
  totals,
  days: z.array(totals.extend({ day: z.string() })),
  segment: z.string().nullable(),
  values: z.array(totals.extend({ value: z.string() })),
});
export type EventSeries = z.infer<typeof eventSeriesSchema>;
export const eventTotalsSchema = z.array(eventSchema.extend({ totals }));

export const topEventsQuerySchema = z.object({ window: z.enum(TOP_EVENT_WINDOWS) });
export const topEventsSchema = z.object({ window: z.enum(TOP_EVENT_WINDOWS), events: z.array(totals.extend({ key: z.string(), name: z.string().nullable(), share: z.number() })) });
export type TopEvents = z.infer<typeof topEventsSchema>;

export const groupSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  eventKeys: z.array(z.string()),
  visible: z.boolean(),
  countName: z.string().nullable(),
  sumName: z.string().nullable(),
  durName: z.string().nullable(),
});
export type GroupDto = z.infer<typeof groupSchema>;
export const groupInputSchema = z.object({
  name,
  description: text(500).nullable().optional(),
  /** At least 2 (checked in the service as ANALYTICS_GROUP_TOO_SMALL, so the screen shows the rule). */
  eventKeys: z.array(z.string().min(1).max(200)).max(500),
  visible: z.boolean().default(true),
  countName: text(50).nullable().optional(),
  sumName: text(50).nullable().optional(),
  durName: text(50).nullable().optional(),
});
export type GroupInput = z.infer<typeof groupInputSchema>;

export const tileSchema = z.object({ eventKey: z.string().min(1).max(200), property: z.enum(TILE_PROPERTIES) });
export type Tile = z.infer<typeof tileSchema>;
/** Checked again in the service: at most 12 tiles (ANALYTICS_TILES_LIMIT), no duplicate pair. */
export const tilesInputSchema = z.object({ tiles: z.array(tileSchema).max(MAX_OVERVIEW_TILES * 4) });
export const overviewSchema = z.object({ tiles: z.array(tileSchema.extend({ name: z.string().nullable(), total: z.number(), days: z.array(z.object({ day: z.string(), value: z.number() })) })) });
export type Overview = z.infer<typeof overviewSchema>;

export const limitsAnswerSchema = z.object({
  limits: z.object({ eventKeys: z.number(), segmentsPerEvent: z.number(), valuesPerSegment: z.number() }),
  drops: z.array(z.object({ kind: z.enum(DROP_KINDS), count: z.number() })),
});

export const sessionsSchema = z.object({ days: z.array(z.object({ day: z.string(), sessions: z.number(), newUsers: z.number(), duration: z.number() })) });

// ----- tokens -----------------------------------------------------------------------------------

export const tokenEndpointSchema = z.object({ path: z.string().max(1000), params: z.record(z.string().max(100), z.string().max(1000)).default({}) });
export const tokenInputSchema = z.object({
  purpose: name,
  endpoints: z.array(tokenEndpointSchema).max(MAX_TOKEN_ENDPOINTS).default([]),
  allApps: z.boolean().default(false),
  apps: z.array(uuid).max(500).default([]),
  /** null: never expires. */
  expiry: z.object({ amount: z.number().int().min(1).max(10_000), unit: z.enum(TOKEN_EXPIRY_UNITS) }).nullable().optional(),
  neverExpires: z.boolean().default(false),
  multiUse: z.boolean().default(true),
});
export type TokenInput = z.infer<typeof tokenInputSchema>;
export const tokenSchema = z.object({
  _id: z.string(),
  purpose: z.string(),
  endpoints: z.array(z.object({ path: z.string(), params: z.record(z.string(), z.string()) })),
  apps: z.array(z.string()).nullable(),
  expiresAt: iso.nullable(),
  multiUse: z.boolean(),
  status: z.enum(['active', 'expired']),
  owner: memberRef,
  createdAt: iso,
});
export type TokenDto = z.infer<typeof tokenSchema>;
/** The token itself is in this answer only. */
export const createdTokenSchema = z.object({ token: z.string(), record: tokenSchema });

// ----- app users, jobs, versions ----------------------------------------------------------------

export const appUserSchema = z.object({
  deviceId: z.string(),
  firstSeenAt: iso,
  lastSeenAt: iso,
  sessions: z.number(),
  totalDuration: z.number(),
  metrics: z.record(z.string(), z.string()),
  details: z.record(z.string(), z.unknown()),
  rawEvents: z.number(),
});
export type AppUserDto = z.infer<typeof appUserSchema>;
export const purgeSchema = z.object({ confirm: z.literal(true, { error: 'validation.mustBeTrue' }) });

export const jobSchema = z.object({
  _id: z.string(),
  appId: z.string().nullable(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  params: z.record(z.string(), z.unknown()),
  createdAt: iso,
  finishedAt: iso.nullable(),
  /** For a completed export: where to download it. */
  downloadUrl: z.string().nullable(),
});
export type JobDto = z.infer<typeof jobSchema>;

export const versionSchema = z.object({ version: z.string(), installedAt: iso });
export type VersionDto = z.infer<typeof versionSchema>;

export const mauSchema = z.array(z.object({ month: z.string(), devices: z.number() }));
export type MauHistory = z.infer<typeof mauSchema>;

export const appRoleSchema = z.enum(APP_ROLES);

// ----- report manager ---------------------------------------------------------------------------

/**
 * An email report: title, metrics, apps, recipients, and when it is sent (frequency, time of day,
 * time zone, and the day of the week or month). The app ids are checked in the service (the
 * actor must administer each); the day needed by the frequency is required here.
 */
export const reportInputSchema = z
  .object({
    title: name,
    metrics: z.array(z.enum(REPORT_METRICS)).min(1, 'validation.required').max(REPORT_METRICS.length),
    apps: z.array(uuid).min(1, 'validation.required').max(100, 'validation.invalid'),
    emails: z.array(emailSchema).min(1, 'validation.required').max(MAX_REPORT_EMAILS, 'validation.invalid'),
    frequency: z.enum(REPORT_FREQUENCIES),
    hour: z.number().int().min(0, 'validation.invalid').max(23, 'validation.invalid'),
    minute: z.number().int().min(0, 'validation.invalid').max(59, 'validation.invalid'),
    timezone: z.string().refine(isTimeZone, 'validation.invalid'),
    dayOfWeek: z.number().int().min(1, 'validation.invalid').max(7, 'validation.invalid').nullable().default(null),
    dayOfMonth: z.number().int().min(1, 'validation.invalid').max(MAX_REPORT_DAY_OF_MONTH, 'validation.invalid').nullable().default(null),
    enabled: z.boolean().default(true),
  })
  .superRefine((r, ctx) => {
    if (r.frequency === 'weekly' && r.dayOfWeek === null) ctx.addIssue({ code: 'custom', path: ['dayOfWeek'], message: 'validation.required' });
    if (r.frequency === 'monthly' && r.dayOfMonth === null) ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'validation.required' });
  });
export type ReportInput = z.infer<typeof reportInputSchema>;
export const reportStatusSchema = z.object({ enabled: z.boolean() });

export const reportSchema = z.object({
  _id: z.string(),
  title: z.string(),
  metrics: z.array(z.enum(REPORT_METRICS)),
  apps: z.array(z.string()),
  emails: z.array(z.string()),
  frequency: z.enum(REPORT_FREQUENCIES),
  hour: z.number(),
  minute: z.number(),
  timezone: z.string(),
  dayOfWeek: z.number().nullable(),
  dayOfMonth: z.number().nullable(),
  enabled: z.boolean(),
  nextRunAt: iso,
  lastSentAt: iso.nullable(),
  createdBy: memberRef.nullable(),
  createdAt: iso,
});
export type ReportDto = z.infer<typeof reportSchema>;

/** The report mail as it would be sent now (the preview). */
export const reportPreviewSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export type ReportPreview = z.infer<typeof reportPreviewSchema>;
