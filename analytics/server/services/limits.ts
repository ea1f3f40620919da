import { and, count, eq, inArray, notLike, sql } from 'drizzle-orm';
import { DEFAULT_LIMITS, type DropKind } from '../../domain/constants';
import { INTERNAL_PREFIX, isInternal } from '../../domain/rules';
import type { Db } from '../../../server/db/client';
import { analyticsEvents, analyticsSegmentValues } from '../../../server/db/schema';
import { valueId, type AppEntry } from './ingestCache';
import type { ParsedEvent } from './parse';

/**
 * Serialises, per app, the requests that add event keys or segment values, until their
 * transaction ends: each then counts what is there and adds within the limit, and the limits are
 * never overshot. Requests bringing only known keys and values never take it.
 */
async function lockForNew(tx: Db, appId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${appId}::text, 0))`);
}

/**
 * Applies the limits (the app's overrides over SPEC §9's) to a request's events, in the request's
 * transaction, and returns those kept with their segmentation cut to what the limits allow (and
 * without omitted segments). New event keys and segment values are added as they are accepted,
 * so the next request sees them; what was refused is counted in `drops`. `found` collects the
 * keys and values known to exist, for the ingestion cache to learn once the transaction committed.
 */
export async function applyLimits(tx: Db, entry: AppEntry, events: ParsedEvent[], drops: Map<DropKind, number>, found: { keys: Map<string, string[]>; values: Set<string> }): Promise<ParsedEvent[]> {
  const { app } = entry;
  const limits = { ...DEFAULT_LIMITS, ...app.limits };
  const drop = (kind: DropKind) => drops.set(kind, (drops.get(kind) ?? 0) + 1);
  let locked = false;
  const lock = async () => {
    if (!locked) await lockForNew(tx, app.id);
    locked = true;
  };

  const keys = [...new Set(events.map((e) => e.key))];
  const known = new Map<string, string[]>(keys.flatMap((k) => (entry.keys.has(k) ? [[k, entry.keys.get(k) ?? []] as const] : [])));
  const readKeys = async (wanted: string[]) => {
    if (wanted.length === 0) return;
    const rows = await tx.select({ key: analyticsEvents.key, omitted: analyticsEvents.omittedSegments }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), inArray(analyticsEvents.key, wanted)));
    for (const r of rows) known.set(r.key, r.omitted);
  };
  await readKeys(keys.filter((k) => !known.has(k)));
  if (keys.some((k) => !known.has(k))) {
    await lock();
    // Another request may have added some while this one waited for the lock.
    await readKeys(keys.filter((k) => !known.has(k)));
    const fresh = keys.filter((k) => !known.has(k));
    // The SDKs' own events ([CLY]_view, [CLY]_action...) are recorded but are not the app's custom events: the limit counts only those.
    const [row] = await tx.select({ n: count() }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), notLike(analyticsEvents.key, `${INTERNAL_PREFIX}%`)));
    const room = Math.max(0, limits.eventKeys - (row?.n ?? 0));
    const custom = fresh.filter((k) => !isInternal(k));
    const accepted = [...fresh.filter(isInternal), ...custom.slice(0, room)];
    if (accepted.length) await tx.insert(analyticsEvents).values([...accepted].sort().map((key) => ({ appId: app.id, key }))).onConflictDoNothing();
    for (const key of accepted) known.set(key, []);
  }
  for (const [key, omitted] of known) found.keys.set(key, omitted);
  const kept = events.filter((e) => (known.has(e.key) ? true : (drop('event_keys'), false)));
  for (const e of kept) {
    const omitted = known.get(e.key) ?? [];
    e.segmentation = Object.fromEntries(Object.entries(e.segmentation).filter(([segment]) => !omitted.includes(segment)));
  }
  const segmented = kept.filter((e) => Object.keys(e.segmentation).length > 0);
  if (segmented.length === 0) return kept;

  const segKeys = [...new Set(segmented.map((e) => e.key))];
  const existing = new Set(segmented.flatMap((e) => Object.entries(e.segmentation).map(([s, v]) => valueId(e.key, s, v))).filter((id) => entry.values.has(id)));
  const readValues = async () => {
    const candidates = [...new Set(segmented.flatMap((e) => Object.values(e.segmentation)))];
    const rows = await tx
      .select({ key: analyticsSegmentValues.eventKey, segment: analyticsSegmentValues.segment, value: analyticsSegmentValues.value })
      .from(analyticsSegmentValues)
      .where(and(eq(analyticsSegmentValues.appId, app.id), inArray(analyticsSegmentValues.eventKey, segKeys), inArray(analyticsSegmentValues.value, candidates)));
    for (const r of rows) existing.add(valueId(r.key, r.segment, r.value));
  };
  const missing = () => segmented.some((e) => Object.entries(e.segmentation).some(([s, v]) => !existing.has(valueId(e.key, s, v))));
  if (missing()) await readValues();
  // How many segments each event has and values each segment has: read only when a request brings a new value, under the lock.
  let counts: { values: Map<string, number>; segments: Map<string, number> } | null = null;
  if (missing()) {
    await lock();
    await readValues();
    const rows = await tx
      .select({ key: analyticsSegmentValues.eventKey, segment: analyticsSegmentValues.segment, n: count() })
      .from(analyticsSegmentValues)
      .where(and(eq(analyticsSegmentValues.appId, app.id), inArray(analyticsSegmentValues.eventKey, segKeys)))
      .groupBy(analyticsSegmentValues.eventKey, analyticsSegmentValues.segment);
    const segments = new Map<string, number>();
    for (const r of rows) segments.set(r.key, (segments.get(r.key) ?? 0) + 1);
    counts = { values: new Map(rows.map((r) => [`${r.key}\u0000${r.segment}`, r.n])), segments };
  }
  const added: { appId: string; eventKey: string; segment: string; value: string }[] = [];
  for (const event of segmented) {
    const segmentation: Record<string, string> = {};
    for (const [segment, value] of Object.entries(event.segmentation)) {
      const id = valueId(event.key, segment, value);
      if (!existing.has(id) && counts) {
        const segKey = `${event.key}\u0000${segment}`;
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
        existing.add(id);
        added.push({ appId: app.id, eventKey: event.key, segment, value });
      }
      segmentation[segment] = value;
    }
    event.segmentation = segmentation;
  }
  const order = (r: { eventKey: string; segment: string; value: string }) => valueId(r.eventKey, r.segment, r.value);
  if (added.length) await tx.insert(analyticsSegmentValues).values(added.sort((x, y) => (order(x) < order(y) ? -1 : 1))).onConflictDoNothing();
  for (const id of existing) found.values.add(id);
  return kept;
}
