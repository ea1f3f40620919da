import type { FastifyBaseLogger } from 'fastify';
import type { MauForecast } from '../../src/domain/usage/forecast';
import { dueMauAlerts, mauMonthStart } from '../../src/domain/usage/mauRule';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import { mauMailFigures, renderMail } from '../mail/templates';
import type { ReportMailing } from '../../analytics/server/services';
import type { MauSampleService, SampledServer } from '../services/mauSamples';
import type { ServerMailService } from '../services/serverMail';

/**
 * The MAU sampling schedule: this month's distinct devices of every server with a
 * machine, kept per month and per day, the forecast made from them, and the alerts it leads to.
 * `now` is the clock (tests move it across days).
 */
export function createMauSampling({ mau, serverMail, mailing, log }: { mau: MauSampleService; serverMail: ServerMailService; mailing: ReportMailing; log: FastifyBaseLogger }) {
  /** Claims the due alert (a guarded update, so two workers never both send it), then mails the admins after it. */
  async function alert(d: SampledServer, startsAt: Date, used: number, limit: number, forecast: MauForecast | null) {
    const sent = await mau.alertsSent(d.id, startsAt);
    const { send, settle } = dueMauAlerts({ used, limit, forecast, sent, settings: d.mauAlerts });
    if (!send) return;
    if (!(await mau.claimAlerts(d.id, startsAt, settle))) return;
    const admins = await serverMail.admins(d.companyId);
    // The server's page shows the forecast, the rule past the tier and the way to the next tier.
    const link = serverMail.pageLink(d);
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
    const rows = await mau.sampled();
    const devices = await mau.devicesOf(rows.map((d) => d.id), startsAt.toISOString().slice(0, 7));
    for (const d of rows) {
      const used = devices.get(d.id) ?? 0;
      const limit = mauFromPlanCode(d.planCode) ?? 0;
      const forecast = await mau.record(d, { day, used, limit, at: now }, { startsAt, endsAt });
      await alert(d, startsAt, used, limit, forecast);
    }
    return rows.length;
  };
}
