import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { DEFAULT_LIMITS } from '../../domain/constants';
import { cutText, dayIn, hasUnprintable, isInternal } from '../../domain/rules';
import { ingestionFor, type ServerAnalyticsState } from '../../domain/serverAccess';
import type { Db } from '../../../server/db/client';
import { recordIngestBatch, recordIngestEvents } from '../../../server/metrics';
import { analyticsApps } from '../../../server/db/schema';
import type { App } from './access';
import type { BatchWriter } from './ingestBatch';
import { learn, valueId, type AppEntry, type IngestCache } from './ingestCache';
import { isHealthKey } from './healthKey';
import { applyLimits } from './limits';
import { writeBatch, type Write } from './ingestWrite';
import { checksumMatches, jsonParam, parseEvents, parseMetrics, parseUserDetails, requestHash, requestTime, sessionSeconds, str, type IngestRequest, type ParsedEvent } from './parse';

/** What /i answers, in Countly's shape: `{ result }` with 200 or 400 (403, 503 when the server takes no data now). */
export interface IngestAnswer {
  status: 200 | 400 | 403 | 503;
  result: string;
  /** Seconds, sent as `Retry-After` with a 503. */
  retryAfter?: number;
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

/**
 * What ingestion answers for a server's state (ingestionFor), or null when it takes the data: a
 * drained server (restarting, being restored) answers 503 with `Retry-After`, which the SDKs
 * answer by keeping the data and sending it again.
 */
export function serverRefusal(server: ServerAnalyticsState, graceDays: number): IngestAnswer | null {
  const rule = ingestionFor(server, graceDays);
  if (rule.take === 'accept') return null;
  if (rule.take === 'refuse') return NOT_ACCEPTING;
  return { status: 503, result: `Server is restarting or being restored: send again in ${rule.retryAfterSeconds} seconds`, retryAfter: rule.retryAfterSeconds };
}

export const MAX_DEVICE_ID = 200;
const LAST_DATA_EVERY_MS = 60_000;

/** The limits of an app: its overrides over the SPEC §9 defaults. */
export const limitsOf = (app: App) => ({ ...DEFAULT_LIMITS, ...app.limits });

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

/** A request checked and parsed, ready to write; `known` its events when the cache knows all their keys and values. */
interface Checked {
  entry: AppEntry;
  w: Write;
  known: ParsedEvent[] | null;
}

/** One SDK request checked (app, device, checksum) and parsed: its refusal, or what it writes. */
async function check(db: Db, cache: IngestCache, request: IngestRequest, graceDays: number, checksumOver: IngestRequest): Promise<IngestAnswer | Checked> {
  const { params } = request;
  const appKey = str(params.app_key);
  const rawDeviceId = str(params.device_id);
  if (!appKey || !rawDeviceId) return MISSING;
  const unprintable = unprintableParam(params, IDS);
  if (unprintable) return unprintable;
  const deviceId = cutText(rawDeviceId, MAX_DEVICE_ID);
  // A health check's key is no app's (those are 40 hex characters): it never brings data.
  if (isHealthKey(appKey)) return NO_APP;
  const entry = await cache.app(db, appKey);
  // At a server's own address, another server's key is no app of this one.
  if (!entry || (request.deploymentId && entry.deploymentId !== request.deploymentId)) return NO_APP;
  const { app } = entry;
  const refusal = serverRefusal(entry.server, graceDays);
  if (refusal) return refusal;
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
  return { entry, w, known: knownEvents(entry, events) };
}

/**
 * Writes a checked request. When the cache knows every event key and segment value it brings,
 * it joins the next batch (group commit); otherwise the limits are applied in a transaction
 * (locking the app only to add new keys or values, so the limits are exact) and the same
 * statement is written in it.
 */
async function commit(db: Db, cache: IngestCache, writer: BatchWriter, { entry, w, known }: Checked): Promise<IngestAnswer> {
  let claimed: boolean;
  let kept: ParsedEvent[] = known ?? [];
  if (known) {
    claimed = await writer.write({ ...w, events: known });
  } else {
    const found = { keys: new Map<string, string[]>(), values: new Set<string>() };
    // New keys are written alone, under the app's lock: a batch of one.
    recordIngestBatch(1);
    claimed = await db.transaction(async (tx) => (await writeBatch(tx, [{ ...w, events: (kept = await applyLimits(tx, entry, w.events, w.drops, found)) }])).has(0));
    learn(entry, found.keys, found.values);
  }
  if (claimed) {
    await touchLastData(db, cache, w.app);
    // A retry already stored (not claimed) counts nothing twice.
    recordIngestEvents(kept.length + w.internal.length, w.events.length - kept.length);
  }
  return SUCCESS;
}

const isAnswer = (checked: IngestAnswer | Checked): checked is IngestAnswer => 'status' in checked;

/** One SDK request (POST or GET /i): checked, then written; answered once stored. */
export async function ingestOne(db: Db, cache: IngestCache, writer: BatchWriter, request: IngestRequest, graceDays: number): Promise<IngestAnswer> {
  const checked = await check(db, cache, request, graceDays, request);
  return isAnswer(checked) ? checked : commit(db, cache, writer, checked);
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
 * A bulk call is read this many requests at a time, then gives the event loop a turn: checking
 * its requests awaits only cached answers, so a long call would otherwise hold the server's thread
 * for the whole call (health p99 under the bulk bench on PostgreSQL reached 100 to 150 ms).
 */
export const BULK_TURN = 25;

/**
 * POST /i/bulk: `requests`, a JSON array of request parameter objects (top-level app_key applies to
 * those without their own). Each is applied as if sent alone; a salted app's checksum is checked
 * over the bulk call as sent, and a call that fails it is answered as Countly does (400), its
 * requests for that app counting toward nothing (devices, MAU).
 */
export async function ingestBulk(db: Db, cache: IngestCache, writer: BatchWriter, request: IngestRequest, graceDays: number): Promise<IngestAnswer> {
  const list = jsonParam(request.params.requests);
  if (!Array.isArray(list)) return { status: 400, result: 'Missing parameter "requests"' };
  const appKey = str(request.params.app_key);
  let refused: IngestAnswer | null = null;
  // Requests are checked in order and join the batches together; one bringing new keys waits for
  // those before it, so the call's requests are applied in the order sent.
  const writing: Promise<IngestAnswer>[] = [];
  let n = 0;
  for (const raw of list.slice(0, MAX_BULK_REQUESTS)) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    if (++n % BULK_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const params = { ...(appKey ? { app_key: appKey } : {}), ...(raw as Record<string, unknown>) };
    const checked = await check(db, cache, { params, rawQuery: '', rawBody: JSON.stringify(raw), deploymentId: request.deploymentId }, graceDays, request);
    if (isAnswer(checked)) {
      // A drained server's answer wins: the SDK keeps the whole batch and sends it again after Retry-After.
      if (checked.status === 503 || (checked === NOT_ACCEPTING && refused?.status !== 503) || (checked === BAD_CHECKSUM && refused === null)) refused = checked;
      continue;
    }
    if (checked.known) {
      const written = commit(db, cache, writer, checked);
      // Awaited below; a failure meanwhile must not count as unhandled.
      written.catch(() => undefined);
      writing.push(written);
    } else {
      await Promise.all(writing);
      await commit(db, cache, writer, checked);
    }
  }
  await Promise.all(writing);
  // A batch for a server that takes no data (or none for now) is answered as refused, so the SDK keeps it to send again;
  // one failing its app's checksum is refused, so its sender learns that nothing of it counted.
  return refused ?? SUCCESS;
}
