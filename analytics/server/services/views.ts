import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { averageDuration, MAX_LISTED_VIEWS, type ViewTotals } from '../../domain/views';
import type { Db } from '../../../server/db/client';
import { analyticsDailyViews } from '../../../server/db/schema';
import { appFor, type Access } from './access';

const v = analyticsDailyViews;

/** The Views list: each page or screen with its visits and time over the period, the most visited first. */
export async function listViews(tx: Db, access: Access, appId: string, period: { from: string; to: string }): Promise<ViewTotals[]> {
  const app = await appFor(tx, access, appId, 'read');
  const visits = sql<number>`sum(${v.visits})::float8`.mapWith(Number);
  const duration = sql<number>`sum(${v.duration})::float8`.mapWith(Number);
  const rows = await tx
    .select({ view: v.view, visits, duration })
    .from(v)
    .where(and(eq(v.appId, app.id), gte(v.day, period.from), lte(v.day, period.to)))
    .groupBy(v.view)
    .orderBy(desc(visits), v.view)
    .limit(MAX_LISTED_VIEWS);
  return rows.map((r) => ({ ...r, averageDuration: averageDuration(r.visits, r.duration) }));
}
