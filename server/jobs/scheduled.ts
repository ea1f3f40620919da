import { BACKUP_SLACK_MINUTES } from '../../src/domain/deployments/schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { PaymentGateway } from '../services/payments';
import { PENDING_ORDER_CLEANUP_DAYS } from '../../src/domain/constants';
import { pendingOrderDue, pendingOrderRemovalAt } from '../../src/domain/orders/pendingOrders';
import { renderMail } from '../mail/templates';
import type { CloudProvider } from '../providers';
import type { ReportMailing } from '../../analytics/server/services';
import type { DeploymentBackupService } from '../services/deploymentBackups';
import type { DomainRecheckService } from '../services/domainRechecks';
import type { MauSampleService } from '../services/mauSamples';
import type { PendingOrderService } from '../services/pendingOrders';
import type { ServerHealth } from '../services/serverHealth';
import type { ServerMailService } from '../services/serverMail';
import type { ServerScheduleService } from '../services/serverSchedules';
import type { ScheduleName } from '../queue';
import { createMauSampling } from './mauSampling';
import { createDomainRechecks } from './domainRechecks';

/** The services the schedules ask for the rows they act on (built in server/compose.ts). */
export interface ScheduleServices {
  servers: ServerScheduleService;
  backups: DeploymentBackupService;
  pendingOrders: PendingOrderService;
  mau: MauSampleService;
  domains: DomainRecheckService;
  serverMail: ServerMailService;
  /** Sends the analytics dashboards' email reports that are due; returns how many. */
  runDueReports: () => Promise<number>;
}

const DAY_MS = 86_400_000;
/** Servers checked at once by the scheduled health checks. */
const HEALTH_CHECK_LANES = 4;


/**
 * The scheduled jobs (pg-boss schedules, run by workers): each finds the servers concerned and
 * queues their tasks, one transaction per server. Each returns how many servers it acted on. The
 * clock is injected so that tests can run them through simulated hours and days.
 */
export function createScheduledJobs({ services, config, providers, payments, health, mailing, log, now }: { services: ScheduleServices; config: Config; providers: (code: string | null | undefined) => CloudProvider; payments: Pick<PaymentGateway, 'abandonCheckout'>; health: ServerHealth; mailing: ReportMailing; log: FastifyBaseLogger; now: () => Date }) {
  const { servers, backups, pendingOrders: unpaidOrders, mau, domains, serverMail } = services;
  const queueFor = servers.queueSystemTask;
  const sampleMau = createMauSampling({ mau, serverMail, mailing, log });
  const recheckDomains = createDomainRechecks({ domains, serverMail, config, mailing, log });
  // Each job reads the injected clock; a test may also hand the MAU sampling its own moment.
  const jobs: Record<ScheduleName, (at?: Date) => Promise<number>> = {
    /**
     * Scheduled backups (the schedule runs hourly; its name is older than hourly backups): each
     * running server with a backup option gets a snapshot once its option's interval has passed
     * since the last one, and scheduled snapshots older than the option's retention are dropped.
     */
    async 'nightly-backups'() {
      const at = now();
      const options = await backups.scheduleOptions();
      const last = await backups.lastScheduled();
      const rows = await servers.running();
      let n = 0;
      for (const d of rows) {
        const option = d.planConfig.features.map((f) => options.get(f)).find((o) => o !== undefined);
        if (!option) continue;
        // Past the option's retention: the archive goes with its row.
        await backups.removeExpired(d.id, option.keepDays, at);
        const due = (last.get(d.id) ?? 0) <= at.getTime() - (option.everyHours * 60 - BACKUP_SLACK_MINUTES) * 60_000;
        if (!due) continue;
        const queued = await queueFor(d.id, d.companyId, 'backup', async (tx) => ({ backupId: await backups.addScheduled(tx, d.id, option.kind, at) }));
        if (queued) n += 1;
      }
      return n;
    },

    /**
     * Checks each running server on its real path (services/serverHealth.ts), the provider's
     * answer about its machine being one input; every check is kept, a change of health goes on
     * the timeline. A few servers at a time: a probe waits at most HEALTH_PROBE_TIMEOUT_MS.
     */
    async 'health-checks'() {
      const rows = await servers.healthTargets();
      const slot = Math.floor(now().getTime() / 60_000);
      const check = async (d: (typeof rows)[number]) => {
        const machine = await providers(d.provider)
          .health(`health:${d.id}:${slot}`, d.machineId)
          .catch((err: unknown) => ({ healthy: false, detail: err instanceof Error ? err.message : 'unreachable' }));
        const run = await health.probe(d.id, { machine, at: now() });
        await health.keep(d.id, run, { event: 'on_change', at: now() });
      };
      const waiting = [...rows];
      const lane = async () => {
        for (let d = waiting.shift(); d; d = waiting.shift()) await check(d).catch((err: unknown) => log.error({ err, deploymentId: d?.id }, 'health check failed to run'));
      };
      await Promise.all(Array.from({ length: Math.min(HEALTH_CHECK_LANES, rows.length) }, lane));
      return rows.length;
    },

    /** This month's MAU of every server with a machine, its forecast and alerts (jobs/mauSampling.ts). */
    'mau-sampling': (at) => sampleMau(at ?? now()),

    /** Servers whose deletion grace period has passed are terminated (a failed termination is left to support, not retried every minute). */
    async terminations() {
      const rows = await servers.dueTerminations(now());
      let n = 0;
      for (const d of rows) if (await queueFor(d.id, d.companyId, 'delete')) n += 1;
      // Deleted servers past their restore window lose their analytics data for good.
      const gone = await servers.removeTenantsPastRestore(now());
      // Their backups too, the final one included: nothing can restore them any more.
      await backups.removeClosed(now());
      return n + gone;
    },

    /** Servers past due beyond PAST_DUE_GRACE_DAYS are paused; paused ones paid again are resumed. */
    async 'past-due-pauses'() {
      const cutoff = new Date(now().getTime() - config.PAST_DUE_GRACE_DAYS * DAY_MS);
      const overdue = await servers.overdue(cutoff);
      // Only servers this job paused: the last pause task was the system's.
      const paid = await servers.paidAgain();
      let n = 0;
      for (const d of overdue) if (await queueFor(d.id, d.companyId, 'pause')) n += 1;
      for (const d of paid) if (await queueFor(d.id, d.companyId, 'resume')) n += 1;
      if (n) log.info({ paused: overdue.length, resumed: paid.length }, 'past-due servers handled');
      return n;
    },

    /** The analytics dashboards' email reports whose due time has come (each tenant's jobs list records them). */
    'analytics-reports': () => services.runDueReports(),

    'pending-orders': () => pendingOrders(),

    /** Verified custom domains whose DNS records went (jobs/domainRechecks.ts). */
    'domain-rechecks': () => recheckDomains(now()),
  };

  /**
   * Orders never paid (the server waits at the payment step): a reminder to the company's admins
   * after a day and a day before the removal, then, PENDING_ORDER_CLEANUP_DAYS after the order,
   * the server is deleted and its subscription cancelled, audited as the system's. A server the
   * customer is already deleting is left to that.
   */
  async function pendingOrders() {
    const at = now();
    const rows = await unpaidOrders.unpaid();
    let n = 0;
    for (const d of rows) {
      const due = pendingOrderDue(d.orderedAt, at, d.sent);
      if (due.remove) {
        if (!(await unpaidOrders.removeUnpaid(d, at))) continue;
        n += 1;
        // After the commit (no network inside a transaction). Should Paddle not answer, its checkout
        // stays open: logged, and a late payment is recorded against the cancelled order.
        await payments.abandonCheckout(d.checkoutTransactionId).catch((err: unknown) => log.warn({ err, deploymentId: d.id }, 'the unpaid order\'s checkout could not be cancelled'));
      } else if (due.remind !== null) {
        // A guarded update claims the reminder, so two workers never both send it.
        if (!(await unpaidOrders.claimReminder(d.subscriptionId, due.remind))) continue;
        const admins = await serverMail.admins(d.companyId);
        // The server's page offers "Complete payment" for exactly this order.
        const link = serverMail.pageLink(d);
        const left = Math.max(1, Math.ceil((pendingOrderRemovalAt(d.orderedAt).getTime() - at.getTime()) / DAY_MS));
        for (const admin of admins) await mailing.mailer.send(admin.email, renderMail(mailing.t, 'paymentReminder', { name: admin.firstName, link, expiry: { days: PENDING_ORDER_CLEANUP_DAYS, count: left }, server: d.name }), link);
        n += 1;
      }
    }
    return n;
  }

  return jobs;
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;
