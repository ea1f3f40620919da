import { and, asc, desc, eq, gte, inArray, lte, notLike, sql, type Column } from 'drizzle-orm';
import { DEFAULT_LIMITS, DROP_KINDS, MAX_OVERVIEW_TILES, MIN_GROUP_EVENTS, type DropKind } from '../../domain/constants';
import { dayIn, INTERNAL_PREFIX, isInternal } from '../../domain/rules';
import type { EventDto, EventSeries, EventUpdate, GroupDto, GroupInput, Overview, Tile, TopEvents } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsDailyEvents, analyticsDailySessions, analyticsDrops, analyticsEventGroups, analyticsEvents, analyticsOverviewTiles, analyticsSegmentValues } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { recordAudit } from '../../../server/services/audit';
import { appFor, type Access, type App } from './access';

type Period = { from: string; to: string };
const e = analyticsDailyEvents;
/**
 * A column's sum, added up in numeric and held within ±1e300 before it is a float8 again: rows
 * stored before ingestion bounded an event's numbers can add up past float8's range.
 */
export const boundedSum = (column: Column) => sql<number>`least(greatest(coalesce(sum(${column}::numeric), 0), -1e300), 1e300)::float8`;
const totalsOf = { count: boundedSum(e.count), sum: boundedSum(e.sum), dur: boundedSum(e.dur) };

async function segmentsOf(tx: Db, appId: string): Promise<Map<string, string[]>> {
  const rows = await tx.selectDistinct({ key: analyticsSegmentValues.eventKey, segment: analyticsSegmentValues.segment }).from(analyticsSegmentValues).where(eq(analyticsSegmentValues.appId, appId)).orderBy(analyticsSegmentValues.segment);
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.key, [...(map.get(r.key) ?? []), r.segment]);
  return map;
}

function eventDto(row: typeof analyticsEvents.$inferSelect, segments: string[]): EventDto {
  return { key: row.key, name: row.name, description: row.description, visible: row.visible, countName: row.countName, sumName: row.sumName, durName: row.durName, omittedSegments: row.omittedSegments, segments };
}

/** Every event of the app with its totals over the period; hidden ones are listed too, marked, for the management screens. */
export async function listEvents(tx: Db, access: Access, appId: string, period: Period) {
  const app = await appFor(tx, access, appId, 'read');
  const defs = (await tx.select().from(analyticsEvents).where(eq(analyticsEvents.appId, app.id)).orderBy(asc(analyticsEvents.key))).filter((d) => !isInternal(d.key));
  const segments = await segmentsOf(tx, app.id);
  const totals = new Map(
    (await tx.select({ key: e.eventKey, ...totalsOf }).from(e).where(and(eq(e.appId, app.id), eq(e.segment, ''), gte(e.day, period.from), lte(e.day, period.to))).groupBy(e.eventKey)).map((r) => [r.key, { count: r.count, sum: r.sum, dur: r.dur }]),
  );
  return defs.map((d) => ({ ...eventDto(d, segments.get(d.key) ?? []), totals: totals.get(d.key) ?? { count: 0, sum: 0, dur: 0 } }));
}

/** All events › one event: daily totals over the period and, with a segment, the totals per value. */
export async function eventSeries(tx: Db, access: Access, appId: string, key: string, query: Period & { segment?: string }): Promise<EventSeries> {
  const app = await appFor(tx, access, appId, 'read');
  const where = and(eq(e.appId, app.id), eq(e.eventKey, key), gte(e.day, query.from), lte(e.day, query.to));
  const days = await tx.select({ day: e.day, ...totalsOf }).from(e).where(and(where, eq(e.segment, ''))).groupBy(e.day).orderBy(e.day);
  const values = query.segment ? await tx.select({ value: e.value, ...totalsOf }).from(e).where(and(where, eq(e.segment, query.segment))).groupBy(e.value).orderBy(desc(totalsOf.count)) : [];
  const totals = days.reduce((t, d) => ({ count: t.count + d.count, sum: t.sum + d.sum, dur: t.dur + d.dur }), { count: 0, sum: 0, dur: 0 });
  return { key, totals, days, segment: query.segment ?? null, values };
}

/** Top events over the last 24 hours (today and yesterday in the app's time zone) or 30 days; hidden events are left out. */
export async function topEvents(tx: Db, access: Access, appId: string, window: TopEvents['window']): Promise<TopEvents> {
  const app = await appFor(tx, access, appId, 'read');
  const to = dayIn(app.timezone, new Date());
  const from = dayIn(app.timezone, new Date(Date.now() - (window === '24hours' ? 1 : 29) * 86_400_000));
  const rows = await tx
    .select({ key: e.eventKey, name: analyticsEvents.name, ...totalsOf })
    .from(e)
    .innerJoin(analyticsEvents, and(eq(analyticsEvents.appId, e.appId), eq(analyticsEvents.key, e.eventKey)))
    .where(and(eq(e.appId, app.id), eq(e.segment, ''), gte(e.day, from), lte(e.day, to), eq(analyticsEvents.visible, true), notLike(e.eventKey, `${INTERNAL_PREFIX}%`)))
    .groupBy(e.eventKey, analyticsEvents.name)
    .orderBy(desc(totalsOf.count))
    .limit(10);
  const all = rows.reduce((n, r) => n + r.count, 0);
  return { window, events: rows.map((r) => ({ ...r, share: all ? r.count / all : 0 })) };
}

/**
 * The edit event drawer (app admins). Omitting a segment purges its stored values and daily rows,
 * so the screen must have confirmed it (confirmPurge); hidden events keep being recorded.
 */
export async function updateEvent(tx: Db, access: Access, appId: string, key: string, input: EventUpdate): Promise<EventDto> {
  const app = await appFor(tx, access, appId, 'admin');
  const [event] = await tx.select().from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), eq(analyticsEvents.key, key)));
  if (!event) throw new AppError('ANALYTICS_EVENT_UPDATE_FAILED');
  const newlyOmitted = (input.omittedSegments ?? []).filter((s) => !event.omittedSegments.includes(s));
  if (newlyOmitted.length && input.confirmPurge !== true) throw new AppError('VALIDATION_FAILED', { fieldErrors: { confirmPurge: ['validation.mustBeTrue'] } });
  const { confirmPurge, ...changes } = input;
  void confirmPurge;
  const [updated] = await tx.update(analyticsEvents).set(changes).where(and(eq(analyticsEvents.appId, app.id), eq(analyticsEvents.key, key))).returning();
  await recordAudit(tx, { actor: access.audit, action: 'analyticsApp.updateEvent', targetType: 'analyticsApp', targetId: app.id, companyId: access.companyId, before: { key, visible: event.visible, omittedSegments: event.omittedSegments }, after: changes });
  if (newlyOmitted.length) {
    await tx.delete(analyticsDailyEvents).where(and(eq(e.appId, app.id), eq(e.eventKey, key), inArray(e.segment, newlyOmitted)));
    await tx.delete(analyticsSegmentValues).where(and(eq(analyticsSegmentValues.appId, app.id), eq(analyticsSegmentValues.eventKey, key), inArray(analyticsSegmentValues.segment, newlyOmitted)));
  }
  return eventDto(updated ?? event, (await segmentsOf(tx, app.id)).get(key) ?? []);
}

// ----- event groups -----------------------------------------------------------------------------

const groupDto = (g: typeof analyticsEventGroups.$inferSelect): GroupDto => ({ _id: g.id, name: g.name, description: g.description, eventKeys: g.eventKeys, visible: g.visible, countName: g.countName, sumName: g.sumName, durName: g.durName });

async function checkGroupEvents(tx: Db, app: App, keys: string[]): Promise<string[]> {
  const unique = [...new Set(keys)];
  if (unique.length < MIN_GROUP_EVENTS) throw new AppError('ANALYTICS_GROUP_TOO_SMALL', { fieldErrors: { eventKeys: ['errors.ANALYTICS_GROUP_TOO_SMALL'] } });
  const found = await tx.select({ key: analyticsEvents.key }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), inArray(analyticsEvents.key, unique)));
  if (found.length !== unique.length) throw new AppError('ANALYTICS_EVENT_UPDATE_FAILED');
  return unique;
}

export async function listGroups(tx: Db, access: Access, appId: string): Promise<GroupDto[]> {
  const app = await appFor(tx, access, appId, 'read');
  return (await tx.select().from(analyticsEventGroups).where(eq(analyticsEventGroups.appId, app.id)).orderBy(analyticsEventGroups.name)).map(groupDto);
}

export async function saveGroup(tx: Db, access: Access, appId: string, groupId: string | null, input: GroupInput): Promise<GroupDto> {
  const app = await appFor(tx, access, appId, 'admin');
  const eventKeys = await checkGroupEvents(tx, app, input.eventKeys);
  const values = { name: input.name, description: input.description ?? null, eventKeys, visible: input.visible, countName: input.countName ?? null, sumName: input.sumName ?? null, durName: input.durName ?? null };
  const [row] = groupId
    ? await tx.update(analyticsEventGroups).set(values).where(and(eq(analyticsEventGroups.id, groupId), eq(analyticsEventGroups.appId, app.id))).returning()
    : await tx.insert(analyticsEventGroups).values({ appId: app.id, ...values }).returning();
  if (!row) throw new AppError('ANALYTICS_GROUP_NOT_FOUND');
  return groupDto(row);
}

export async function deleteGroup(tx: Db, access: Access, appId: string, groupId: string): Promise<void> {
  const app = await appFor(tx, access, appId, 'admin');
  const gone = await tx.delete(analyticsEventGroups).where(and(eq(analyticsEventGroups.id, groupId), eq(analyticsEventGroups.appId, app.id))).returning({ id: analyticsEventGroups.id });
  if (gone.length === 0) throw new AppError('ANALYTICS_GROUP_NOT_FOUND');
}

// ----- overview ---------------------------------------------------------------------------------

/** The overview's configuration is the app admins': at most 12 tiles, no event-and-property pair twice. */
export async function saveTiles(tx: Db, access: Access, appId: string, tiles: Tile[]): Promise<Tile[]> {
  const app = await appFor(tx, access, appId, 'admin');
  if (tiles.length > MAX_OVERVIEW_TILES) throw new AppError('ANALYTICS_TILES_LIMIT');
  if (new Set(tiles.map((t) => `${t.eventKey}\u0000${t.property}`)).size !== tiles.length) throw new AppError('ANALYTICS_TILE_DUPLICATE');
  const keys = [...new Set(tiles.map((t) => t.eventKey))];
  if (keys.length) {
    const found = await tx.select({ key: analyticsEvents.key }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), inArray(analyticsEvents.key, keys)));
    if (found.length !== keys.length) throw new AppError('ANALYTICS_EVENT_UPDATE_FAILED');
  }
  await tx.delete(analyticsOverviewTiles).where(eq(analyticsOverviewTiles.appId, app.id));
  if (tiles.length) await tx.insert(analyticsOverviewTiles).values(tiles.map((t, position) => ({ appId: app.id, position, eventKey: t.eventKey, property: t.property })));
  return tiles;
}

export async function overview(tx: Db, access: Access, appId: string, period: Period): Promise<Overview> {
  const app = await appFor(tx, access, appId, 'read');
  const tiles = await tx.select().from(analyticsOverviewTiles).where(eq(analyticsOverviewTiles.appId, app.id)).orderBy(analyticsOverviewTiles.position);
  if (tiles.length === 0) return { tiles: [] };
  const keys = [...new Set(tiles.map((t) => t.eventKey))];
  const names = new Map((await tx.select({ key: analyticsEvents.key, name: analyticsEvents.name }).from(analyticsEvents).where(and(eq(analyticsEvents.appId, app.id), inArray(analyticsEvents.key, keys)))).map((r) => [r.key, r.name]));
  const days = await tx.select({ key: e.eventKey, day: e.day, ...totalsOf }).from(e).where(and(eq(e.appId, app.id), eq(e.segment, ''), inArray(e.eventKey, keys), gte(e.day, period.from), lte(e.day, period.to))).groupBy(e.eventKey, e.day).orderBy(e.day);
  return {
    tiles: tiles.map((t) => {
      const property = t.property as Tile['property'];
      const series = days.filter((d) => d.key === t.eventKey).map((d) => ({ day: d.day, value: d[property] }));
      return { eventKey: t.eventKey, property, name: names.get(t.eventKey) ?? null, total: series.reduce((n, d) => n + d.value, 0), days: series };
    }),
  };
}

export async function sessions(tx: Db, access: Access, appId: string, period: Period) {
  const app = await appFor(tx, access, appId, 'read');
  const s = analyticsDailySessions;
  const days = await tx.select({ day: s.day, sessions: s.sessions, newUsers: s.newUsers, duration: s.duration }).from(s).where(and(eq(s.appId, app.id), gte(s.day, period.from), lte(s.day, period.to))).orderBy(s.day);
  return { days };
}

/** The app's limits and what they dropped: the dashboard shows the limit messages from this. */
export async function limits(tx: Db, access: Access, appId: string) {
  const app = await appFor(tx, access, appId, 'read');
  const rows = await tx.select({ kind: analyticsDrops.kind, n: sql<number>`sum(${analyticsDrops.count})::int` }).from(analyticsDrops).where(eq(analyticsDrops.appId, app.id)).groupBy(analyticsDrops.kind);
  return {
    limits: { ...DEFAULT_LIMITS, ...app.limits },
    drops: DROP_KINDS.map((kind: DropKind) => ({ kind, count: rows.find((r) => r.kind === kind)?.n ?? 0 })),
  };
}
