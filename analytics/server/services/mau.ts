import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MauHistory } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsApps, analyticsMonthlyDevices, analyticsTenants } from '../../../server/db/schema';

/**
 * Monthly active users of a deployment: the distinct devices that sent data in each month, summed
 * over its apps (a device id belongs to one app, as in Countly), oldest month first. The month is
 * taken in each app's time zone, like its daily data. No tenant: an empty history.
 */
export async function mauHistory(db: Db, deploymentId: string): Promise<MauHistory> {
  const m = analyticsMonthlyDevices;
  const rows = await db
    .select({ month: m.month, devices: sql<number>`count(*)::int` })
    .from(m)
    .innerJoin(analyticsApps, eq(analyticsApps.id, m.appId))
    .innerJoin(analyticsTenants, eq(analyticsTenants.id, analyticsApps.tenantId))
    .where(eq(analyticsTenants.deploymentId, deploymentId))
    .groupBy(m.month)
    .orderBy(m.month);
  return rows;
}

/**
 * One month's MAU ('YYYY-MM') of several deployments at once, for the monthly sampling job: the
 * distinct devices per deployment, 0 for those without data or without a dashboard.
 */
export async function mauOfMonth(db: Db, deploymentIds: string[], month: string): Promise<Map<string, number>> {
  if (deploymentIds.length === 0) return new Map();
  const m = analyticsMonthlyDevices;
  const rows = await db
    .select({ deploymentId: analyticsTenants.deploymentId, devices: sql<number>`count(*)::int` })
    .from(m)
    .innerJoin(analyticsApps, eq(analyticsApps.id, m.appId))
    .innerJoin(analyticsTenants, eq(analyticsTenants.id, analyticsApps.tenantId))
    .where(and(inArray(analyticsTenants.deploymentId, deploymentIds), eq(m.month, month)))
    .groupBy(analyticsTenants.deploymentId);
  return new Map(deploymentIds.map((id) => [id, rows.find((r) => r.deploymentId === id)?.devices ?? 0]));
}
