import { and, asc, desc, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { companyAdmins, serverPageLink } from './recipients';
import type { FastifyBaseLogger } from 'fastify';
import { forecastMau, type MauForecast, type PastPeriod } from '../../src/domain/usage/forecast';
import { dueMauAlerts, mauMonthStart, type MauAlert } from '../../src/domain/usage/mauRule';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { Db } from '../db/client';
import { companies, deploymentRuntime, deployments, mauDailySamples, mauHistory, subscriptions } from '../db/schema';
import { mauMailFigures, renderMail } from '../mail/templates';
import { mauOfMonth, type ReportMailing } from '../../analytics/server/services';

/** Past periods whose shape the forecast reads. */
const PAST_PERIODS = 3;

interface Sampled {
  id: string;
  name: string;
  planCode: string;
  companyId: string;
  projectId: string;
}

/**
 * The MAU sampling schedule (issue 28, 33): this month's distinct devices of every server with a
 * machine, kept per month and per day, the forecast made from them, and the alerts it leads to.
 * `now` is the clock (tests move it across days).
 */
export function createMauSampling({ db, mailing, log }: { db: Db; mailing: ReportMailing; log: FastifyBaseLogger }) {
  /** The forecast from this month's daily samples and the last months' shape. */
  async function forecastFor(deploymentId: string, startsAt: Date, endsAt: Date, limit: number): Promise<MauForecast | null> {
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

  /** Claims the due alert (a guarded update, so two workers never both send it), then mails the admins after it. */
  async function alert(d: Sampled & { mauAlerts: typeof companies.$inferSelect.mauAlerts }, startsAt: Date, used: number, limit: number, forecast: MauForecast | null) {
    const [row] = await db.select({ sent: mauHistory.alertsSent }).from(mauHistory).where(and(eq(mauHistory.deploymentId, d.id), eq(mauHistory.startsAt, startsAt)));
    const sent: MauAlert[] = row?.sent ?? [];
    const { send, settle } = dueMauAlerts({ used, limit, forecast, sent, settings: d.mauAlerts });
    if (!send) return;
    const list = sql`string_to_array(${settle.join(',')}, ',')`;
    const claimed = await db
      .update(mauHistory)
      .set({ alertsSent: sql`array(select distinct unnest(${mauHistory.alertsSent} || ${list}) order by 1)` })
      .where(and(eq(mauHistory.deploymentId, d.id), eq(mauHistory.startsAt, startsAt), sql`not (${mauHistory.alertsSent} && ${list})`))
      .returning({ id: mauHistory.id });
    if (claimed.length === 0) return;
    const admins = await companyAdmins(db, d.companyId);
    // The server's page shows the forecast, the rule past the tier and the way to the next tier.
    const link = serverPageLink(mailing.publicUrl, d);
    // Where the count comes from: the devices its apps' SDKs sent, looked up in the dashboard.
    const devices = `${mailing.publicUrl}/#/analytics/${d.id}/app-users`;
    const share = send === 'share100' ? 100 : send === 'share80' ? 80 : 0;
    const kind = send === 'runOut' ? 'mauRunOut' : 'mauWarning';
    const runOutDay = forecast?.runOutOn ? Number(forecast.runOutOn.slice(8, 10)) : 0;
    for (const admin of admins) {
      const expiry = mauMailFigures({ used, limit, share, forecast: forecast?.forecast ?? used, runOutDay });
      await mailing.mailer.send(admin.email, renderMail(mailing.t, kind, { name: admin.firstName, link, more: devices, expiry, server: d.name }), link);
    }
    log.info({ deploymentId: d.id, used, limit, alert: send }, 'MAU alert sent');
  }

  return async function sample(now: Date = new Date()): Promise<number> {
    const startsAt = mauMonthStart(now);
    const endsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 1);
    const day = now.toISOString().slice(0, 10);
    const rows = await db
      .select({ id: deployments.id, subscriptionId: subscriptions.id, name: deployments.name, planCode: deployments.planCode, companyId: deployments.companyId, projectId: deployments.projectId, mauAlerts: companies.mauAlerts })
      .from(deployments)
      .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
      .innerJoin(companies, eq(companies.id, deployments.companyId))
      .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
      .where(and(isNotNull(deploymentRuntime.machineId), inArray(deployments.status, ['running', 'modifying', 'restarting', 'paused'])));
    const devices = await mauOfMonth(db, rows.map((d) => d.id), startsAt.toISOString().slice(0, 7));
    for (const d of rows) {
      const used = devices.get(d.id) ?? 0;
      const limit = mauFromPlanCode(d.planCode) ?? 0;
      await db.insert(mauDailySamples).values({ deploymentId: d.id, day, used }).onConflictDoUpdate({ target: [mauDailySamples.deploymentId, mauDailySamples.day], set: { used } });
      const forecast = await forecastFor(d.id, startsAt, endsAt, limit);
      await db
        .insert(mauHistory)
        .values({ deploymentId: d.id, subscriptionId: d.subscriptionId, used, startsAt, endsAt, sampledAt: now, forecast })
        .onConflictDoUpdate({ target: [mauHistory.deploymentId, mauHistory.startsAt], set: { used, subscriptionId: d.subscriptionId, sampledAt: now, forecast } });
      await alert(d, startsAt, used, limit, forecast);
    }
    return rows.length;
  };
}
