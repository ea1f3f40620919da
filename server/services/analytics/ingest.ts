import { and, count, eq, inArray, isNull, lt, notLike, or, sql } from 'drizzle-orm';
import { DEFAULT_LIMITS, type DropKind } from '../../../src/domain/analytics/constants';
import { dayIn, INTERNAL_PREFIX, isInternal } from '../../../src/domain/analytics/rules';
import type { Db } from '../../db/client';
import {
  analyticsAppUsers,
  analyticsApps,
  analyticsDailyEvents,
  analyticsDailySessions,
  analyticsDrops,
  analyticsEvents,
  analyticsMonthlyDevices,
  analyticsRawEvents,
  analyticsRequestHashes,
  analyticsSegmentValues,
} from '../../db/schema';
import type { App } from './access';
import { checksumMatches, jsonParam, parseEvents, parseMetrics, parseUserDetails, requestHash, requestTime, sessionSeconds, str, type IngestRequest, type ParsedEvent } from './parse';

/** What /i answers, in Countly's shape: `{ result }` with 200 or 400. */
export interface IngestAnswer {
  status: 200 | 400;
  result: string;
}

export const SUCCESS: IngestAnswer = { status: 200, result: 'Success' };
const MISSING: IngestAnswer = { status: 400, result: 'Missing parameter "app_key" or "device_id"' };
const NO_APP: IngestAnswer = { status: 400, result: 'App does not exist' };
const BAD_CHECKSUM: IngestAnswer = { status: 400, result: 'Request does not match checksum' };

const MAX_DEVICE_ID = 200;

type Totals = { count: number; sum: number; dur: number };

/** The limits of an app: its overrides over the SPEC §9 defaults. */
export const limitsOf = (app: App) => ({ ...DEFAULT_LIMITS, ...app.limits });

/**
 * Applies the limits to a request's events and returns those kept, with their segmentation cut to
 * what the limits allow. New event keys, segments and values are registered as they are accepted,
 * so the next request sees them; what was refused is counted by kind.
 */
async function applyLimits(tx: Db, app: App, events: ParsedEvent[], drops: Map<DropKind, number>): Promise<ParsedEvent[]> {
  const limits = limitsOf(app);
  const drop = (kind: DropKind) => drops.set(kind, (drops.get(kind) ?? 0) + 1);
  const keys = [...new Set(events.map((e) => e.key))];
  const known = new Map((await tx.select({ key: analyticsEvents.key, omitted: analyticsEvents.omittedSegments }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), inArray(analyticsEvents.key, keys)))).map((r) => [r.key, r.omitted]));
  const fresh = keys.filter((k) => !known.has(k));
  if (fresh.length) {
    // The SDKs' own events ([CLY]_view, [CLY]_action...) are recorded but are not the app's custom events: the limit counts only those.
    const [row] = await tx.select({ n: count() }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), notLike(analyticsEvents.key, `${INTERNAL_PREFIX}%`)));
    const room = Math.max(0, limits.eventKeys - (row?.n ?? 0));
    const custom = fresh.filter((k) => !isInternal(k));
    const accepted = [...fresh.filter(isInternal), ...custom.slice(0, room)];
    // Rows go in key order in every statement: concurrent requests then lock them in the same order and cannot deadlock.
    if (accepted.length) await tx.insert(analyticsEvents).values([...accepted].sort().map((key) => ({ appId: app.id, key }))).onConflictDoNothing();
    for (const key of accepted) known.set(key, []);
  }
  const kept = events.filter((e) => (known.has(e.key) ? true : (drop('event_keys'), false)));
  const segmented = kept.filter((e) => Object.keys(e.segmentation).length > 0);
  if (segmented.length === 0) return kept;

  const segKeys = [...new Set(segmented.map((e) => e.key))];
  const candidateValues = [...new Set(segmented.flatMap((e) => Object.values(e.segmentation)))];
  const existing = new Set(
    (
      await tx
        .select({ key: analyticsSegmentValues.eventKey, segment: analyticsSegmentValues.segment, value: analyticsSegmentValues.value })
        .from(analyticsSegmentValues)
        .where(and(eq(analyticsSegmentValues.appId, app.id), inArray(analyticsSegmentValues.eventKey, segKeys), inArray(analyticsSegmentValues.value, candidateValues)))
    ).map((r) => `${r.key}\u0000${r.segment}\u0000${r.value}`),
  );
  // How many segments each event has and values each segment has: read only when a request brings a new value.
  let counts: { values: Map<string, number>; segments: Map<string, number> } | null = null;
  const loadCounts = async () => {
    const rows = await tx
      .select({ key: analyticsSegmentValues.eventKey, segment: analyticsSegmentValues.segment, n: count() })
      .from(analyticsSegmentValues)
      .where(and(eq(analyticsSegmentValues.appId, app.id), inArray(analyticsSegmentValues.eventKey, segKeys)))
      .groupBy(analyticsSegmentValues.eventKey, analyticsSegmentValues.segment);
    const segments = new Map<string, number>();
    for (const r of rows) segments.set(r.key, (segments.get(r.key) ?? 0) + 1);
    return { values: new Map(rows.map((r) => [`${r.key}\u0000${r.segment}`, r.n])), segments };
  };
  const added: { appId: string; eventKey: string; segment: string; value: string }[] = [];
  for (const event of segmented) {
    const omitted = new Set(known.get(event.key) ?? []);
    const segmentation: Record<string, string> = {};
    for (const [segment, value] of Object.entries(event.segmentation)) {
      if (omitted.has(segment)) continue;
      const segKey = `${event.key}\u0000${segment}`;
      const valueKey = `${segKey}\u0000${value}`;
      if (!existing.has(valueKey)) {
        counts ??= await loadCounts();
        if (!counts.values.has(segKey)) {
          if ((counts.segments.get(event.key) ?? 0) >= limits.segmentsPerEvent) {
            drop('segments');
            continue;
          }
          counts.segments.set(event.key, (counts.segments.get(event.key) ?? 0) + 1);
          counts.values.set(segKey, 0);
        }
        if ((counts.values.get(segKey) ?? 0) >= limits.valuesPerSegment) {
          drop('segment_values');
          continue;
        }
        counts.values.set(segKey, (counts.values.get(segKey) ?? 0) + 1);
        existing.add(valueKey);
        added.push({ appId: app.id, eventKey: event.key, segment, value });
      }
      segmentation[segment] = value;
    }
    event.segmentation = segmentation;
  }
  const order = (r: { eventKey: string; segment: string; value: string }) => `${r.eventKey}\u0000${r.segment}\u0000${r.value}`;
  if (added.length) await tx.insert(analyticsSegmentValues).values(added.sort((x, y) => (order(x) < order(y) ? -1 : 1))).onConflictDoNothing();
  return kept;
}

function addTo(map: Map<string, Totals & { eventKey: string; day: string; segment: string; value: string }>, eventKey: string, day: string, segment: string, value: string, e: ParsedEvent) {
  const id = `${eventKey}\u0000${day}\u0000${segment}\u0000${value}`;
  const row = map.get(id) ?? { eventKey, day, segment, value, count: 0, sum: 0, dur: 0 };
  row.count += e.count;
  row.sum += e.sum ?? 0;
  row.dur += e.dur ?? 0;
  map.set(id, row);
}

async function recordEvents(tx: Db, app: App, deviceId: string, events: ParsedEvent[]) {
  const rows = new Map<string, Totals & { eventKey: string; day: string; segment: string; value: string }>();
  for (const e of events) {
    const day = dayIn(app.timezone, e.at);
    addTo(rows, e.key, day, '', '', e);
    for (const [segment, value] of Object.entries(e.segmentation)) addTo(rows, e.key, day, segment, value, e);
  }
  const t = analyticsDailyEvents;
  await tx
    .insert(t)
    .values([...rows.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([, r]) => ({ appId: app.id, ...r })))
    .onConflictDoUpdate({ target: [t.appId, t.eventKey, t.day, t.segment, t.value], set: { count: sql`${t.count} + excluded.count`, sum: sql`${t.sum} + excluded.sum`, dur: sql`${t.dur} + excluded.dur` } });
  await tx.insert(analyticsRawEvents).values(events.map((e) => ({ appId: app.id, deviceId, key: e.key, count: e.count, sum: e.sum, dur: e.dur, segmentation: Object.keys(e.segmentation).length ? e.segmentation : null, occurredAt: e.at })));
}

export async function findApp(db: Db, appKey: string): Promise<App | null> {
  const [app] = await db.select().from(analyticsApps).where(eq(analyticsApps.key, appKey));
  return app ?? null;
}

/**
 * One SDK request, in one transaction: checked (app, device, checksum), recognised if it is a
 * retry, then the app user, the month's devices, the day's sessions and the events are updated.
 */
export async function ingestOne(db: Db, request: IngestRequest, checksumOver: IngestRequest = request): Promise<IngestAnswer> {
  const { params } = request;
  const appKey = str(params.app_key);
  const deviceId = str(params.device_id)?.slice(0, MAX_DEVICE_ID);
  if (!appKey || !deviceId) return MISSING;
  const target = await findApp(db, appKey);
  if (!target) return NO_APP;
  if (target.checksumSalt && !checksumMatches(checksumOver, target.checksumSalt)) return BAD_CHECKSUM;

  const at = requestTime(params.timestamp);
  const day = dayIn(target.timezone, at);
  const begin = str(params.begin_session) === '1';
  const duration = sessionSeconds(params.session_duration);
  const events = parseEvents(params.events, at);
  const metrics = parseMetrics(params.metrics);
  const details = parseUserDetails(params.user_details);
  const hash = requestHash(request);

  await db.transaction(async (tx) => {
    const claimed = await tx.insert(analyticsRequestHashes).values({ appId: target.id, hash }).onConflictDoNothing().returning({ hash: analyticsRequestHashes.hash });
    if (claimed.length === 0) return;
    const u = analyticsAppUsers;
    const [user] = await tx
      .insert(u)
      .values({ appId: target.id, deviceId, firstSeenAt: at, lastSeenAt: at, sessions: begin ? 1 : 0, totalDuration: duration, metrics, details })
      .onConflictDoUpdate({
        target: [u.appId, u.deviceId],
        set: {
          lastSeenAt: sql`greatest(${u.lastSeenAt}, excluded.last_seen_at)`,
          sessions: sql`${u.sessions} + excluded.sessions`,
          totalDuration: sql`${u.totalDuration} + excluded.total_duration`,
          metrics: sql`${u.metrics} || excluded.metrics`,
          details: sql`${u.details} || excluded.details`,
        },
      })
      .returning({ sessions: u.sessions });
    await tx.insert(analyticsMonthlyDevices).values({ appId: target.id, month: day.slice(0, 7), deviceId }).onConflictDoNothing();
    if (begin || duration > 0) {
      const newUser = begin && user?.sessions === 1 ? 1 : 0;
      const s = analyticsDailySessions;
      await tx
        .insert(s)
        .values({ appId: target.id, day, sessions: begin ? 1 : 0, newUsers: newUser, duration })
        .onConflictDoUpdate({ target: [s.appId, s.day], set: { sessions: sql`${s.sessions} + excluded.sessions`, newUsers: sql`${s.newUsers} + excluded.new_users`, duration: sql`${s.duration} + excluded.duration` } });
    }
    if (events.length) {
      const drops = new Map<DropKind, number>();
      const kept = await applyLimits(tx, target, events, drops);
      if (kept.length) await recordEvents(tx, target, deviceId, kept);
      if (drops.size) {
        const d = analyticsDrops;
        await tx
          .insert(d)
          .values([...drops].sort(([x], [y]) => (x < y ? -1 : 1)).map(([kind, n]) => ({ appId: target.id, day, kind, count: n })))
          .onConflictDoUpdate({ target: [d.appId, d.day, d.kind], set: { count: sql`${d.count} + excluded.count` } });
      }
    }
    // At most once a minute: every request updating the app's row would queue them all behind one lock.
    if (target.lastDataAt && target.lastDataAt.getTime() > Date.now() - 60_000) return;
    await tx
      .update(analyticsApps)
      .set({ lastDataAt: new Date() })
      .where(and(eq(analyticsApps.id, target.id), or(isNull(analyticsApps.lastDataAt), lt(analyticsApps.lastDataAt, new Date(Date.now() - 60_000)))));
  });
  return SUCCESS;
}

/** At most this many requests per bulk call (the SDKs send batches of about 50). */
export const MAX_BULK_REQUESTS = 1_000;

/**
 * POST /i/bulk: `requests`, a JSON array of request parameter objects (top-level app_key applies to
 * those without their own). Each is applied in its own transaction, as if sent alone; a salted
 * app's checksum is checked over the bulk call as sent.
 */
export async function ingestBulk(db: Db, request: IngestRequest): Promise<IngestAnswer> {
  const list = jsonParam(request.params.requests);
  if (!Array.isArray(list)) return { status: 400, result: 'Missing parameter "requests"' };
  const appKey = str(request.params.app_key);
  for (const raw of list.slice(0, MAX_BULK_REQUESTS)) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const params = { ...(appKey ? { app_key: appKey } : {}), ...(raw as Record<string, unknown>) };
    await ingestOne(db, { params, rawQuery: '', rawBody: JSON.stringify(raw) }, request);
  }
  return SUCCESS;
}
