import { and, eq, inArray, max, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { companyAdmins, serverPageLink } from './recipients';
import { BACKUP_SLACK_MINUTES, backupScheduleOf } from '../../src/domain/deployments/schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { PaymentGateway } from '../services/payments';
import { analyticsTenants, deploymentBackups, deploymentRuntime, deploymentTasks, deployments, features, subscriptions } from '../db/schema';
import { PENDING_ORDER_CLEANUP_DAYS } from '../../src/domain/constants';
import { pendingOrderDue, pendingOrderRemovalAt } from '../../src/domain/orders/pendingOrders';
import { renderMail } from '../mail/templates';
import type { CloudProvider } from '../providers';
import type { BackupStore } from '../backups/store';
import { removeBackups } from '../backups/tenantBackups';
import { removeTenant, runDueReports, type ReportMailing } from '../../analytics/server/services';
import { recordAudit } from '../services/audit';
import type { ServerHealth } from '../services/serverHealth';
import { enqueueTask, openTask, setDeploymentStatus } from '../services/deploymentTasks';
import type { TaskQueue } from '../queue';
import type { ScheduleName } from '../queue';
import { createMauSampling } from './mauSampling';
import { createDomainRechecks } from './domainRechecks';

const DAY_MS = 86_400_000;
/** Servers checked at once by the scheduled health checks. */
const HEALTH_CHECK_LANES = 4;


/**
 * The scheduled jobs (pg-boss schedules, run by workers): each finds the servers concerned and
 * queues their tasks, one transaction per server. Each returns how many servers it acted on. The
 * clock is injected so that tests can run them through simulated hours and days.
 */
export function createScheduledJobs({ db, config, queue, providers, backups, payments, health, mailing, log, now }: { db: Db; config: Config; queue: TaskQueue; providers: (code: string | null | undefined) => CloudProvider; backups: BackupStore; payments: Pick<PaymentGateway, 'abandonCheckout'>; health: ServerHealth; mailing: ReportMailing; log: FastifyBaseLogger; now: () => Date }) {
  /** Queues a task unless the server already has one open; audited as the system's. */
  async function queueFor(deploymentId: string, companyId: string, type: 'backup' | 'delete' | 'pause' | 'resume', payload: (tx: Db) => Promise<Record<string, unknown>> = async () => ({})) {
    return db.transaction(async (tx) => {
      await tx.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId)).for('update');
      if (await openTask(tx, deploymentId)) return false;
      const task = await enqueueTask(tx, queue, { deploymentId, type, payload: await payload(tx) });
      await recordAudit(tx, { actor: null, action: `deployment.${type}`, targetType: 'deployment', targetId: deploymentId, companyId, after: { taskId: task.id, scheduled: true } });
      return true;
    });
  }

  const sampleMau = createMauSampling({ db, mailing, log });
  const recheckDomains = createDomainRechecks({ db, config, mailing, log });
  // Each job reads the injected clock; a test may also hand the MAU sampling its own moment.
  const jobs: Record<ScheduleName, (at?: Date) => Promise<number>> = {
    /**
     * Scheduled backups (the schedule runs hourly; its name is older than hourly backups): each
     * running server with a backup option gets a snapshot once its option's interval has passed
     * since the last one, and scheduled snapshots older than the option's retention are dropped.
     */
    async 'nightly-backups'() {
      const at = now();
      const options = new Map((await db.select({ id: features.id, code: features.code }).from(features).where(eq(features.type, 'backup'))).map((f) => [f.id, backupScheduleOf(f.code)]));
      const last = new Map(
        (
          await db
            .select({ id: deploymentBackups.deploymentId, at: max(deploymentBackups.createdAt) })
            .from(deploymentBackups)
            .where(inArray(deploymentBackups.kind, ['nightly', 'hourly']))
            .groupBy(deploymentBackups.deploymentId)
        ).map((r) => [r.id, r.at ? new Date(r.at).getTime() : 0]),
      );
      const rows = await db.select({ id: deployments.id, companyId: deployments.companyId, planConfig: deployments.planConfig }).from(deployments).where(eq(deployments.status, 'running'));
      let n = 0;
      for (const d of rows) {
        const option = d.planConfig.features.map((f) => options.get(f)).find((o) => o !== undefined);
        if (!option) continue;
        // Past the option's retention: the archive goes with its row.
        const expired = await db
          .select({ id: deploymentBackups.id, storeKey: deploymentBackups.storeKey })
          .from(deploymentBackups)
          .where(and(eq(deploymentBackups.deploymentId, d.id), inArray(deploymentBackups.kind, ['nightly', 'hourly']), lt(deploymentBackups.createdAt, new Date(at.getTime() - option.keepDays * DAY_MS)), sql`${deploymentBackups.status} <> 'pending'`));
        await removeBackups(db, backups, expired);
        const due = (last.get(d.id) ?? 0) <= at.getTime() - (option.everyHours * 60 - BACKUP_SLACK_MINUTES) * 60_000;
        if (!due) continue;
        const queued = await queueFor(d.id, d.companyId, 'backup', async (tx) => {
          const [b] = await tx.insert(deploymentBackups).values({ deploymentId: d.id, kind: option.kind, createdAt: at }).returning({ id: deploymentBackups.id });
          return { backupId: b?.id };
        });
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
      const rows = await db
        .select({ id: deployments.id, provider: deployments.planConfig, machineId: deploymentRuntime.machineId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'running'), isNotNull(deploymentRuntime.machineId)));
      const slot = Math.floor(now().getTime() / 60_000);
      const check = async (d: (typeof rows)[number]) => {
        const machine = await providers(d.provider.provider)
          .health(`health:${d.id}:${slot}`, d.machineId as string)
          .catch((err: unknown) => ({ healthy: false, detail: err instanceof Error ? err.message : 'unreachable' }));
        const run = await health.probe(d.id, { machine, at: now() });
        await db.transaction((tx) => health.record(tx, d.id, run, { event: 'on_change', at: now() }));
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
      const rows = await db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(lte(deploymentRuntime.terminationScheduledAt, now()), sql`${deployments.status} not in ('deleted', 'error_deleting')`));
      let n = 0;
      for (const d of rows) if (await queueFor(d.id, d.companyId, 'delete')) n += 1;
      // Deleted servers past their restore window lose their analytics data for good.
      const gone = await db
        .select({ id: deployments.id })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .innerJoin(analyticsTenants, eq(analyticsTenants.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'deleted'), lte(deploymentRuntime.restorableUntil, now())));
      for (const d of gone) await db.transaction((tx) => removeTenant(tx, d.id));
      // Their backups too, the final one included: nothing can restore them any more.
      const closed = await db
        .select({ id: deploymentBackups.id, storeKey: deploymentBackups.storeKey })
        .from(deploymentBackups)
        .innerJoin(deployments, eq(deployments.id, deploymentBackups.deploymentId))
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'deleted'), lte(deploymentRuntime.restorableUntil, now())));
      await removeBackups(db, backups, closed);
      return n + gone.length;
    },

    /** Servers past due beyond PAST_DUE_GRACE_DAYS are paused; paused ones paid again are resumed. */
    async 'past-due-pauses'() {
      const cutoff = new Date(now().getTime() - config.PAST_DUE_GRACE_DAYS * DAY_MS);
      const overdue = await db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(and(eq(subscriptions.status, 'past_due'), lte(subscriptions.pastDueSince, cutoff), eq(deployments.status, 'running')));
      const paid = await db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(
          and(
            eq(subscriptions.status, 'active'),
            eq(deployments.status, 'paused'),
            // Only servers this job paused: the last pause task was the system's.
            sql`(select t.requested_by is null from ${deploymentTasks} t where t.deployment_id = ${deployments.id} and t.type = 'pause' order by t.seq desc limit 1)`,
          ),
        );
      let n = 0;
      for (const d of overdue) if (await queueFor(d.id, d.companyId, 'pause')) n += 1;
      for (const d of paid) if (await queueFor(d.id, d.companyId, 'resume')) n += 1;
      if (n) log.info({ paused: overdue.length, resumed: paid.length }, 'past-due servers handled');
      return n;
    },

    /** The analytics dashboards' email reports whose due time has come (each tenant's jobs list records them). */
    'analytics-reports': () => runDueReports(db, mailing, config.PAST_DUE_GRACE_DAYS),

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
    const rows = await db
      .select({ id: deployments.id, name: deployments.name, companyId: deployments.companyId, projectId: deployments.projectId, orderedAt: deployments.createdAt, subscriptionId: subscriptions.id, checkoutTransactionId: subscriptions.checkoutTransactionId, sent: subscriptions.pendingRemindersSent })
      .from(deployments)
      .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
      .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
      .where(and(eq(subscriptions.status, 'pending'), eq(deployments.status, 'provisioned'), isNull(deploymentRuntime.terminationScheduledAt)));
    let n = 0;
    for (const d of rows) {
      const due = pendingOrderDue(d.orderedAt, at, d.sent);
      if (due.remove) {
        if (!(await removeUnpaid(d, at))) continue;
        n += 1;
        // After the commit (no network inside a transaction). Should Paddle not answer, its checkout
        // stays open: logged, and a late payment is recorded against the cancelled order.
        await payments.abandonCheckout(d.checkoutTransactionId).catch((err: unknown) => log.warn({ err, deploymentId: d.id }, 'the unpaid order\'s checkout could not be cancelled'));
      } else if (due.remind !== null) {
        // A guarded update claims the reminder, so two workers never both send it.
        const claimed = await db
          .update(subscriptions)
          .set({ pendingRemindersSent: due.remind })
          .where(and(eq(subscriptions.id, d.subscriptionId), eq(subscriptions.status, 'pending'), lt(subscriptions.pendingRemindersSent, due.remind)))
          .returning({ id: subscriptions.id });
        if (claimed.length === 0) continue;
        const admins = await companyAdmins(db, d.companyId);
        // The server's page offers "Complete payment" for exactly this order.
        const link = serverPageLink(mailing.publicUrl, d);
        const left = Math.max(1, Math.ceil((pendingOrderRemovalAt(d.orderedAt).getTime() - at.getTime()) / DAY_MS));
        for (const admin of admins) await mailing.mailer.send(admin.email, renderMail(mailing.t, 'paymentReminder', { name: admin.firstName, link, expiry: { days: PENDING_ORDER_CLEANUP_DAYS, count: left }, server: d.name }), link);
        n += 1;
      }
    }
    return n;
  }

  /** Deletes a server whose order was never paid, if it still is one (checked under the server's lock). */
  async function removeUnpaid(d: { id: string; companyId: string; orderedAt: Date; subscriptionId: string }, at: Date) {
    return db.transaction(async (tx) => {
      const [server] = await tx.select({ status: deployments.status }).from(deployments).where(eq(deployments.id, d.id)).for('update');
      const [sub] = await tx.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, d.subscriptionId));
      await tx.insert(deploymentRuntime).values({ deploymentId: d.id }).onConflictDoNothing();
      const [runtime] = await tx.select({ terminationScheduledAt: deploymentRuntime.terminationScheduledAt }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
      if (server?.status !== 'provisioned' || sub?.status !== 'pending' || runtime?.terminationScheduledAt) return false;
      await tx.update(subscriptions).set({ status: 'canceled', updatedAt: at }).where(eq(subscriptions.id, d.subscriptionId));
      await setDeploymentStatus(tx, d.id, 'deleted');
      // Nothing was ever set up, so there is nothing to restore.
      await tx.update(deploymentRuntime).set({ deletedAt: at, restorableUntil: at, updatedAt: at }).where(eq(deploymentRuntime.deploymentId, d.id));
      await recordAudit(tx, { actor: null, action: 'deployment.expire', targetType: 'deployment', targetId: d.id, companyId: d.companyId, before: { status: 'provisioned', subscription: 'pending' }, after: { status: 'deleted', subscription: 'canceled', orderedAt: d.orderedAt.toISOString(), unpaidDays: PENDING_ORDER_CLEANUP_DAYS } });
      return true;
    });
  }
  return jobs;
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;
