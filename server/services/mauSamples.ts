import { and, asc, desc, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { mauOfMonth } from '../../analytics/server/services/mau';
import { forecastMau, type MauForecast, type PastPeriod } from '../../src/domain/usage/forecast';
import type { MauAlert } from '../../src/domain/usage/mauRule';
import type { Db } from '../db/client';
import { companies, deploymentRuntime, deployments, mauDailySamples, mauHistory, subscriptions } from '../db/schema';

/** Past periods whose shape the forecast reads. */
const PAST_PERIODS = 3;

/** A server the MAU sampling counts. */
export interface SampledServer {
  id: string;
  subscriptionId: string | null;
  name: string;
  planCode: string;
  companyId: string;
  projectId: string;
  mauAlerts: typeof companies.$inferSelect.mauAlerts;
}

/** The month's period a sample belongs to. */
export interface MauPeriod {
  startsAt: Date;
  endsAt: Date;
}

/**
 * Servers' MAU as the sampling schedule keeps it: this month's distinct devices per month
 * (`mau_history`) and per day (`mau_daily_samples`), the forecast made from them, and which
 * alerts of the month were sent.
 */
export function createMauSampleService({ db }: { db: Db }) {
  /** The forecast from this month's daily samples and the last months' shape. */
  async function forecastFor(deploymentId: string, { startsAt, endsAt }: MauPeriod, limit: number): Promise<MauForecast | null> {
    const since = new Date(Date.UTC(startsAt.getUTCFullYear(), startsAt.getUTCMonth() - PAST_PERIODS, 1));
    const [samples, months] = await Promise.all([
      db.select({ day: mauDailySamples.day, used: mauDailySamples.used }).from(mauDailySamples).where(and(eq(mauDailySamples.deploymentId, deploymentId), gte(mauDailySamples.day, since.toISOString().slice(0, 10)))).orderBy(asc(mauDailySamples.day)),
      db.select({ startsAt: mauHistory.startsAt, used: mauHistory.used }).from(mauHistory).where(and(eq(mauHistory.deploymentId, deploymentId), gte(mauHistory.startsAt, since), lt(mauHistory.startsAt, startsAt))).orderBy(desc(mauHistory.startsAt)),
    ]);
    const monthOf = (iso: string) => iso.slice(0, 7);
    const current = monthOf(startsAt.toISOString());
    const past: PastPeriod[] = months.map((m) => ({ startsAt: m.startsAt.toISOString(), used: m.used, samples: samples.filter((s) => monthOf(s.day) === monthOf(m.startsAt.toISOString())) }));
    return forecastMau({ period: { startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() }, samples: samples.filter((s) => monthOf(s.day) === current), past, limit });
  }

  return {
    /** Every server with a machine that counts devices (running, or paused and changing). */
    sampled: (): Promise<SampledServer[]> =>
      db
        .select({ id: deployments.id, subscriptionId: subscriptions.id, name: deployments.name, planCode: deployments.planCode, companyId: deployments.companyId, projectId: deployments.projectId, mauAlerts: companies.mauAlerts })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .innerJoin(companies, eq(companies.id, deployments.companyId))
        .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(and(isNotNull(deploymentRuntime.machineId), inArray(deployments.status, ['running', 'modifying', 'restarting', 'paused']))),

    /** The servers' distinct devices of the month (`YYYY-MM`), from their dashboards. */
    devicesOf: (deploymentIds: string[], month: string) => mauOfMonth(db, deploymentIds, month),

    /**
     * Keeps today's count and the month's, with the forecast made from them (a second sample the
     * same day replaces the first); returns the forecast.
     */
    async record(d: Pick<SampledServer, 'id' | 'subscriptionId'>, sample: { day: string; used: number; limit: number; at: Date }, period: MauPeriod): Promise<MauForecast | null> {
      const { day, used, at } = sample;
      await db.insert(mauDailySamples).values({ deploymentId: d.id, day, used }).onConflictDoUpdate({ target: [mauDailySamples.deploymentId, mauDailySamples.day], set: { used } });
      const forecast = await forecastFor(d.id, period, sample.limit);
      await db
        .insert(mauHistory)
        .values({ deploymentId: d.id, subscriptionId: d.subscriptionId, used, startsAt: period.startsAt, endsAt: period.endsAt, sampledAt: at, forecast })
        .onConflictDoUpdate({ target: [mauHistory.deploymentId, mauHistory.startsAt], set: { used, subscriptionId: d.subscriptionId, sampledAt: at, forecast } });
      return forecast;
    },

    /** The alerts already sent for the server's month. */
    async alertsSent(deploymentId: string, startsAt: Date): Promise<MauAlert[]> {
      const [row] = await db.select({ sent: mauHistory.alertsSent }).from(mauHistory).where(and(eq(mauHistory.deploymentId, deploymentId), eq(mauHistory.startsAt, startsAt)));
      return row?.sent ?? [];
    },

    /** Claims alerts for the month (a guarded update, so two workers never both send one); true when this caller got them. */
    async claimAlerts(deploymentId: string, startsAt: Date, settle: MauAlert[]): Promise<boolean> {
      const list = sql`string_to_array(${settle.join(',')}, ',')`;
      const claimed = await db
        .update(mauHistory)
        .set({ alertsSent: sql`array(select distinct unnest(${mauHistory.alertsSent} || ${list}) order by 1)` })
        .where(and(eq(mauHistory.deploymentId, deploymentId), eq(mauHistory.startsAt, startsAt), sql`not (${mauHistory.alertsSent} && ${list})`))
        .returning({ id: mauHistory.id });
      return claimed.length > 0;
    },
  };
}

export type MauSampleService = ReturnType<typeof createMauSampleService>;
