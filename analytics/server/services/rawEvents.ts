import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { analyticsRawRequests, type AnalyticsRawEvent } from '../../../server/db/schema';

/**
 * Raw events are kept one row per SDK request (ingestWrite.ts writes them), each holding its
 * events in order with the span of their instants. Reading and trimming them by event lives here.
 */

const ofDevice = (appId: string, deviceId: string) => and(eq(analyticsRawRequests.appId, appId), eq(analyticsRawRequests.deviceId, deviceId));

/** How many raw events one app user has. */
export async function countRawEvents(db: Db, appId: string, deviceId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`coalesce(sum(jsonb_array_length(${analyticsRawRequests.events})), 0)::int` }).from(analyticsRawRequests).where(ofDevice(appId, deviceId));
  return row?.n ?? 0;
}

/** One app user's raw events, oldest first (events of one instant keep the order they came in). */
export async function rawEventsOf(db: Db, appId: string, deviceId: string): Promise<AnalyticsRawEvent[]> {
  const rows = await db.select({ events: analyticsRawRequests.events }).from(analyticsRawRequests).where(ofDevice(appId, deviceId)).orderBy(asc(analyticsRawRequests.firstAt), asc(analyticsRawRequests.id));
  // Array.prototype.sort is stable; ISO instants of one format sort as text.
  return rows.flatMap((r) => r.events).sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}

export async function deleteRawEventsOf(db: Db, appId: string, deviceId: string): Promise<void> {
  await db.delete(analyticsRawRequests).where(ofDevice(appId, deviceId));
}

/**
 * Drops the raw events that happened before `before` from the rows `rows` selects (a condition on
 * the alias `r`): rows wholly before it go, a row spanning it keeps its later events.
 */
export async function trimRawEvents(db: Db, rows: SQL, before: Date): Promise<void> {
  const cut = before.toISOString();
  await db.execute(sql`
    update analytics_raw_requests r set events = k.events, first_at = k.first_at from (
      select s.id, jsonb_agg(x.e order by x.o) as events, min((x.e->>'timestamp')::timestamptz) as first_at
      from analytics_raw_requests s cross join lateral jsonb_array_elements(s.events) with ordinality as x(e, o)
      where s.id in (select r.id from analytics_raw_requests r where ${rows} and r.first_at < ${cut} and r.last_at >= ${cut}) and (x.e->>'timestamp')::timestamptz >= ${cut}
      group by s.id
    ) k where r.id = k.id`);
  // first_at bounds last_at from below: the condition on it lets the index find the rows.
  await db.execute(sql`delete from analytics_raw_requests r where ${rows} and r.first_at < ${cut} and r.last_at < ${cut}`);
}
