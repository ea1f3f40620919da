import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { DEFAULT_LIMITS, type DropKind } from '../../../src/domain/analytics/constants';
import { cutText, dayIn, hasUnprintable, isInternal, VIEW_KEY } from '../../../src/domain/analytics/rules';
import { analyticsAccessFor } from '../../../src/domain/analytics/serverAccess';
import type { Db } from '../../db/client';
import { recordIngestBatch, recordIngestEvents } from '../../metrics';
import { analyticsApps } from '../../db/schema';
import { MAX_VIEWS_PER_DAY } from '../../../src/domain/analytics/views';
import type { App } from './access';
import { learn, valueId, type AppEntry, type IngestCache } from './ingestCache';
import { applyLimits } from './limits';
import { checksumMatches, jsonParam, parseEvents, parseMetrics, parseUserDetails, requestHash, requestTime, sessionSeconds, str, type IngestRequest, type ParsedEvent } from './parse';

/** What /i answers, in Countly's shape: `{ result }` with 200 or 400. */
export interface IngestAnswer {
  status: 200 | 400 | 403;
  result: string;
}

export const SUCCESS: IngestAnswer = { status: 200, result: 'Success' };
export const MISSING: IngestAnswer = { status: 400, result: 'Missing parameter "app_key" or "device_id"' };
export const NO_APP: IngestAnswer = { status: 400, result: 'App does not exist' };
const BAD_CHECKSUM: IngestAnswer = { status: 400, result: 'Request does not match checksum' };
export const invalid = (name: string): IngestAnswer => ({ status: 400, result: `Invalid parameter "${name}"` });

/** The parameters that name the app, the device and the request (the retry hash): stored or looked up as text. */
const IDS = ['app_key', 'device_id', 'timestamp'] as const;

/**
 * The refusal of the first named parameter holding a control character or a lone surrogate, or
 * null. Checked on the values as decoded by ingestion: a bulk call's inner requests and a query
 * Fastify could not decode never went through the request guard; PostgreSQL refuses NUL in text.
 */
export function unprintableParam(params: IngestRequest['params'], names: readonly string[]): IngestAnswer | null {
  const name = names.find((n) => hasUnprintable(str(params[n]) ?? ''));
  return name ? invalid(name) : null;
}
/** The server is not live and paid for (analyticsAccessFor): refused so that the SDKs keep the data and retry. */
const NOT_ACCEPTING: IngestAnswer = { status: 403, result: 'Server does not accept data: it is not running or not paid for' };

export const MAX_DEVICE_ID = 200;
const LAST_DATA_EVERY_MS = 60_000;

/** The limits of an app: its overrides over the SPEC §9 defaults. */
export const limitsOf = (app: App) => ({ ...DEFAULT_LIMITS, ...app.limits });

type DailyRow = { k: string; d: string; s: string; v: string; c: number; su: number; du: number };

/** The day rows of the events (totals under segment '' and one row per segment value; the SDKs' own events only totals), in key order. */
function dailyRows(app: App, events: ParsedEvent[]): DailyRow[] {
  const rows = new Map<string, DailyRow>();
  const add = (k: string, d: string, s: string, v: string, e: ParsedEvent) => {
    const id = `${k}\u0000${d}\u0000${s}\u0000${v}`;
    const row = rows.get(id) ?? { k, d, s, v, c: 0, su: 0, du: 0 };
    row.c += e.count;
    row.su += e.sum ?? 0;
    row.du += e.dur ?? 0;
    rows.set(id, row);
  };
  for (const e of events) {
    const day = dayIn(app.timezone, e.at);
    add(e.key, day, '', '', e);
    // Internal events' segments (view names, ratings...) are unbounded and outside the limits: totals only.
    if (isInternal(e.key)) continue;
    for (const [segment, value] of Object.entries(e.segmentation)) add(e.key, day, segment, value, e);
  }
  // Rows go in key order: concurrent requests then lock them in the same order and cannot deadlock.
  return [...rows.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([, r]) => r);
}

type ViewRow = { n: string; d: string; v: number; du: number };

/** The day rows of the views: a `[CLY]_view` with `visit=1` is a visit, any one may bring its duration; in key order. */
function viewRows(app: App, events: ParsedEvent[]): ViewRow[] {
  const rows = new Map<string, ViewRow>();
  for (const e of events) {
    const name = e.segmentation.name;
    if (e.key !== VIEW_KEY || !name) continue;
    const d = dayIn(app.timezone, e.at);
    const id = `${name}\u0000${d}`;
    const row = rows.get(id) ?? { n: name, d, v: 0, du: 0 };
    if (e.segmentation.visit === '1') row.v += 1;
    row.du += Math.max(0, e.dur ?? 0);
    rows.set(id, row);
  }
  return [...rows.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([, r]) => r);
}

interface Write {
  app: App;
  hash: string;
  deviceId: string;
  at: Date;
  day: string;
  begin: boolean;
  duration: number;
  metrics: Record<string, string>;
  details: Record<string, unknown>;
  /** Custom events, after the limits. */
  events: ParsedEvent[];
  /** The SDKs' own events ([CLY]_...): outside the limits. */
  internal: ParsedEvent[];
  drops: Map<DropKind, number>;
}

/**
 * Everything one request changes, as one statement: the retry hash is claimed and every other
 * write takes its rows from that claim, so a retry changes nothing. Its shape never varies (each
 * part reads its rows from a JSON parameter, empty when there is nothing), so concurrent requests
 * take their row locks in the same order. Answers whether the request was new.
 */
async function write(db: Db, w: Write): Promise<boolean> {
  const sessions = w.begin || w.duration > 0;
  const all = [...w.events, ...w.internal];
  const raw = all.map((e) => ({ k: e.key, c: e.count, su: e.sum, du: e.dur, seg: Object.keys(e.segmentation).length ? e.segmentation : null, at: e.at.toISOString() }));
  const drops = [...w.drops].sort(([x], [y]) => (x < y ? -1 : 1)).map(([kind, n]) => ({ kind, n }));
  const result = (await db.execute(sql`
    with claim as (
      insert into analytics_request_hashes (app_id, hash) values (${w.app.id}::uuid, ${w.hash}::text) on conflict do nothing returning app_id
    ), u as (
      insert into analytics_app_users (app_id, device_id, first_seen_at, last_seen_at, sessions, total_duration, metrics, details)
      select app_id, ${w.deviceId}::text, ${w.at.toISOString()}::timestamptz, ${w.at.toISOString()}::timestamptz, ${w.begin ? 1 : 0}::int, ${w.duration}::float8, ${JSON.stringify(w.metrics)}::jsonb, ${JSON.stringify(w.details)}::jsonb from claim
      on conflict (app_id, device_id) do update set
        last_seen_at = greatest(analytics_app_users.last_seen_at, excluded.last_seen_at),
        sessions = analytics_app_users.sessions + excluded.sessions,
        total_duration = analytics_app_users.total_duration + excluded.total_duration,
        metrics = analytics_app_users.metrics || excluded.metrics,
        details = analytics_app_users.details || excluded.details
      returning sessions
    ), m as (
      insert into analytics_monthly_devices (app_id, month, device_id) select app_id, ${w.day.slice(0, 7)}::text, ${w.deviceId}::text from claim on conflict do nothing
    ), s as (
      insert into analytics_daily_sessions (app_id, day, sessions, new_users, duration)
      select app_id, ${w.day}::text, ${w.begin ? 1 : 0}::int, case when ${w.begin}::boolean and (select sessions from u) = 1 then 1 else 0 end, ${w.duration}::float8 from claim where ${sessions}::boolean
      on conflict (app_id, day) do update set
        sessions = analytics_daily_sessions.sessions + excluded.sessions,
        new_users = analytics_daily_sessions.new_users + excluded.new_users,
        duration = analytics_daily_sessions.duration + excluded.duration
    ), e as (
      insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur)
      select c.app_id, x.k, x.d, x.s, x.v, x.c, x.su, x.du from claim c cross join jsonb_to_recordset(${JSON.stringify(dailyRows(w.app, all))}::jsonb) as x(k text, d text, s text, v text, c float8, su float8, du float8)
      on conflict (app_id, event_key, day, segment, value) do update set
        count = analytics_daily_events.count + excluded.count,
        sum = analytics_daily_events.sum + excluded.sum,
        dur = analytics_daily_events.dur + excluded.dur
    ), r as (
      insert into analytics_raw_events (app_id, device_id, key, count, sum, dur, segmentation, occurred_at)
      select c.app_id, ${w.deviceId}::text, x.k, x.c, x.su, x.du, x.seg, x.at from claim c cross join jsonb_to_recordset(${JSON.stringify(raw)}::jsonb) as x(k text, c float8, su float8, du float8, seg jsonb, at timestamptz)
    ), dr as (
      insert into analytics_drops (app_id, day, kind, count)
      select c.app_id, ${w.day}::text, x.kind, x.n from claim c cross join jsonb_to_recordset(${JSON.stringify(drops)}::jsonb) as x(kind text, n int)
      on conflict (app_id, day, kind) do update set count = analytics_drops.count + excluded.count
    ), vw as (
      insert into analytics_daily_views (app_id, view, day, visits, duration)
      select c.app_id, x.n, x.d, x.v, x.du from claim c cross join jsonb_to_recordset(${JSON.stringify(viewRows(w.app, w.internal))}::jsonb) as x(n text, d text, v float8, du float8)
      where exists (select 1 from analytics_daily_views o where o.app_id = c.app_id and o.view = x.n and o.day = x.d)
        or (select count(*) from analytics_daily_views o where o.app_id = c.app_id and o.day = x.d) < ${MAX_VIEWS_PER_DAY}
      on conflict (app_id, view, day) do update set visits = analytics_daily_views.visits + excluded.visits, duration = analytics_daily_views.duration + excluded.duration
    )
    select count(*)::int as claimed from claim`)) as unknown as { rows: { claimed: number }[] };
  // Both drivers answer { rows }; the generic database type does not say so.
  return (result.rows[0]?.claimed ?? 0) > 0;
}

/** The events of a request whose keys and segment values the cache knows: omitted segments dropped, nothing to check. */
function knownEvents(entry: AppEntry, events: ParsedEvent[]): ParsedEvent[] | null {
  const out: ParsedEvent[] = [];
  for (const e of events) {
    const omitted = entry.keys.get(e.key);
    if (!omitted) return null;
    const kept = Object.entries(e.segmentation).filter(([segment]) => !omitted.includes(segment));
    if (kept.some(([segment, value]) => !entry.values.has(valueId(e.key, segment, value)))) return null;
    out.push({ ...e, segmentation: Object.fromEntries(kept) });
  }
  return out;
}

/**
 * One SDK request: checked (app, device, checksum), then written. When the cache knows every
 * event key and segment value it brings, that is one statement; otherwise the limits are applied
 * in a transaction (locking the app only to add new keys or values, so the limits are exact) and
 * the same statement is written in it.
 */
export async function ingestOne(db: Db, cache: IngestCache, request: IngestRequest, graceDays: number, checksumOver: IngestRequest = request): Promise<IngestAnswer> {
  const { params } = request;
  const appKey = str(params.app_key);
  const rawDeviceId = str(params.device_id);
  if (!appKey || !rawDeviceId) return MISSING;
  const unprintable = unprintableParam(params, IDS);
  if (unprintable) return unprintable;
  const deviceId = cutText(rawDeviceId, MAX_DEVICE_ID);
  const entry = await cache.app(db, appKey);
  if (!entry) return NO_APP;
  const { app } = entry;
  if (analyticsAccessFor(entry.server, graceDays) !== 'full') return NOT_ACCEPTING;
  if (app.checksumSalt && !checksumMatches(checksumOver, app.checksumSalt)) return BAD_CHECKSUM;

  const at = requestTime(params.timestamp);
  const parsed = parseEvents(params.events, at);
  // The SDKs' own events ([CLY]_view, [CLY]_action...) are not custom events: they skip the limits.
  const events = parsed.filter((e) => !isInternal(e.key));
  const internal = parsed.filter((e) => isInternal(e.key));
  const w: Write = {
    app,
    hash: requestHash(request),
    deviceId,
    at,
    day: dayIn(app.timezone, at),
    begin: str(params.begin_session) === '1',
    duration: sessionSeconds(params.session_duration),
    metrics: parseMetrics(params.metrics),
    details: parseUserDetails(params.user_details),
    events,
    internal,
    drops: new Map(),
  };
  const known = knownEvents(entry, events);
  let claimed: boolean;
  let kept = known ?? events;
  if (known) {
    claimed = await write(db, { ...w, events: known });
  } else {
    const found = { keys: new Map<string, string[]>(), values: new Set<string>() };
    claimed = await db.transaction(async (tx) => write(tx, { ...w, events: (kept = await applyLimits(tx, entry, events, w.drops, found)) }));
    learn(entry, found.keys, found.values);
  }
  if (claimed) await touchLastData(db, cache, app);
  // A retry already stored (not claimed) counts nothing twice.
  if (claimed) recordIngestEvents(kept.length + internal.length, events.length - kept.length);
  return SUCCESS;
}

/** The app's last data date, written at most once a minute per app and process (every request writing it would queue them all on one row). */
async function touchLastData(db: Db, cache: IngestCache, app: App): Promise<void> {
  const now = Date.now();
  const last = cache.lastData.get(app.id) ?? app.lastDataAt?.getTime() ?? 0;
  if (last > now - LAST_DATA_EVERY_MS) return;
  cache.lastData.set(app.id, now);
  await db
    .update(analyticsApps)
    .set({ lastDataAt: new Date(now) })
    .where(and(eq(analyticsApps.id, app.id), or(isNull(analyticsApps.lastDataAt), lt(analyticsApps.lastDataAt, new Date(now - LAST_DATA_EVERY_MS)))));
}

/** At most this many requests per bulk call (the SDKs send batches of about 50). */
export const MAX_BULK_REQUESTS = 1_000;

/**
 * POST /i/bulk: `requests`, a JSON array of request parameter objects (top-level app_key applies to
 * those without their own). Each is applied as if sent alone; a salted app's checksum is checked
 * over the bulk call as sent.
 */
export async function ingestBulk(db: Db, cache: IngestCache, request: IngestRequest, graceDays: number): Promise<IngestAnswer> {
  const list = jsonParam(request.params.requests);
  if (!Array.isArray(list)) return { status: 400, result: 'Missing parameter "requests"' };
  const appKey = str(request.params.app_key);
  let refused: IngestAnswer | null = null;
  const batch = list.slice(0, MAX_BULK_REQUESTS);
  recordIngestBatch(batch.length);
  for (const raw of batch) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const params = { ...(appKey ? { app_key: appKey } : {}), ...(raw as Record<string, unknown>) };
    const answer = await ingestOne(db, cache, { params, rawQuery: '', rawBody: JSON.stringify(raw) }, graceDays, request);
    if (answer === NOT_ACCEPTING) refused = answer;
  }
  // A batch for a server that takes no data is answered as refused, so the SDK keeps it to send again.
  return refused ?? SUCCESS;
}
