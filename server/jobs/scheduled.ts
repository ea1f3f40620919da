import { and, eq, gte, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { mauWarningShare } from '../../src/domain/deployments';
import { mauFromPlanCode } from '../../src/domain/planCode';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { analyticsTenants, companyMembers, deploymentBackups, deploymentRuntime, deploymentTasks, deployments, features, mauHistory, subscriptions, users } from '../db/schema';
import { renderMail } from '../mail/templates';
import type { CloudProvider } from '../providers';
import { mauOfMonth, removeTenant, runDueReports, type ReportMailing } from '../services/analytics';
import { recordAudit } from '../services/audit';
import { enqueueTask, openTask, recordEvent } from '../services/deploymentTasks';
import type { TaskQueue } from '../queue';
import type { ScheduleName } from '../queue';

const DAY_MS = 86_400_000;


/**
 * The scheduled jobs (pg-boss schedules, run by workers): each finds the servers concerned and
 * queues their tasks, one transaction per server. Each returns how many servers it acted on.
 */
export function createScheduledJobs({ db, config, queue, providers, mailing, log }: { db: Db; config: Config; queue: TaskQueue; providers: (code: string | null | undefined) => CloudProvider; mailing: ReportMailing; log: FastifyBaseLogger }) {
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

  /**
   * Past a warning share of its plan's MAU tier, the company's admins get one mail per share and
   * month (the guarded update claims it, so two workers never both send it). Nothing is cut off.
   */
  async function warnOfMau(d: { id: string; name: string; planCode: string; companyId: string; projectId: string }, used: number, startsAt: Date) {
    const limit = mauFromPlanCode(d.planCode) ?? 0;
    const share = mauWarningShare(used, limit);
    if (share === 0) return;
    const claimed = await db
      .update(mauHistory)
      .set({ warnedShare: share })
      .where(and(eq(mauHistory.deploymentId, d.id), eq(mauHistory.startsAt, startsAt), lt(mauHistory.warnedShare, share)))
      .returning({ id: mauHistory.id });
    if (claimed.length === 0) return;
    const admins = await db
      .select({ email: users.email, firstName: users.firstName })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, d.companyId), eq(companyMembers.role, 'admin')));
    const link = `${mailing.publicUrl}/#/c/${d.companyId}/p/${d.projectId}/deployments/${d.id}`;
    for (const admin of admins) {
      await mailing.mailer.send(admin.email, renderMail(mailing.t, 'mauWarning', { name: admin.firstName, link, expiry: { used, limit, share }, server: d.name }), link);
    }
    log.info({ deploymentId: d.id, used, limit, share }, 'MAU warning sent');
  }

  const jobs: Record<ScheduleName, () => Promise<number>> = {
    /** Nightly backups of running servers that have the backup feature (one a day at most). */
    async 'nightly-backups'() {
      const backupIds = new Set((await db.select({ id: features.id }).from(features).where(eq(features.type, 'backup'))).map((f) => f.id));
      const since = new Date(Date.now() - 20 * 3600_000);
      const recent = new Set(
        (await db.select({ id: deploymentBackups.deploymentId }).from(deploymentBackups).where(and(eq(deploymentBackups.kind, 'nightly'), gte(deploymentBackups.createdAt, since)))).map((r) => r.id),
      );
      const rows = await db.select({ id: deployments.id, companyId: deployments.companyId, planConfig: deployments.planConfig }).from(deployments).where(eq(deployments.status, 'running'));
      let n = 0;
      for (const d of rows) {
        if (recent.has(d.id) || !d.planConfig.features.some((f) => backupIds.has(f))) continue;
        const queued = await queueFor(d.id, d.companyId, 'backup', async (tx) => {
          const [b] = await tx.insert(deploymentBackups).values({ deploymentId: d.id, kind: 'nightly' }).returning({ id: deploymentBackups.id });
          return { backupId: b?.id };
        });
        if (queued) n += 1;
      }
      return n;
    },

    /** Asks each running server's provider whether it answers; a change of health goes on the timeline. */
    async 'health-checks'() {
      const rows = await db
        .select({ id: deployments.id, provider: deployments.planConfig, machineId: deploymentRuntime.machineId, health: deploymentRuntime.healthState })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'running'), isNotNull(deploymentRuntime.machineId)));
      const slot = Math.floor(Date.now() / 60_000);
      for (const d of rows) {
        const result = await providers(d.provider.provider)
          .health(`health:${d.id}:${slot}`, d.machineId as string)
          .catch((err: unknown) => ({ healthy: false, detail: err instanceof Error ? err.message : 'unreachable' }));
        const state = result.healthy ? 'healthy' : 'unhealthy';
        await db.transaction(async (tx) => {
          await tx.update(deploymentRuntime).set({ healthState: state, healthCheckedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, d.id));
          if (state !== d.health) await recordEvent(tx, d.id, 'health', { message: result.healthy ? 'healthy' : `unhealthy: ${result.detail}` });
        });
      }
      return rows.length;
    },

    /** This month's MAU of every server with a machine: the distinct devices its analytics dashboard saw this month. */
    async 'mau-sampling'() {
      const now = new Date();
      const startsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const endsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 1);
      const rows = await db
        .select({ id: deployments.id, subscriptionId: subscriptions.id, name: deployments.name, planCode: deployments.planCode, companyId: deployments.companyId, projectId: deployments.projectId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(and(isNotNull(deploymentRuntime.machineId), inArray(deployments.status, ['running', 'modifying', 'restarting', 'paused'])));
      const month = startsAt.toISOString().slice(0, 7);
      const devices = await mauOfMonth(db, rows.map((d) => d.id), month);
      for (const d of rows) {
        const used = devices.get(d.id) ?? 0;
        await db
          .insert(mauHistory)
          .values({ deploymentId: d.id, subscriptionId: d.subscriptionId, used, startsAt, endsAt, sampledAt: now })
          .onConflictDoUpdate({ target: [mauHistory.deploymentId, mauHistory.startsAt], set: { used, subscriptionId: d.subscriptionId, sampledAt: now } });
        await warnOfMau(d, used, startsAt);
      }
      return rows.length;
    },

    /** Servers whose deletion grace period has passed are terminated (a failed termination is left to support, not retried every minute). */
    async terminations() {
      const rows = await db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(lte(deploymentRuntime.terminationScheduledAt, new Date()), sql`${deployments.status} not in ('deleted', 'error_deleting')`));
      let n = 0;
      for (const d of rows) if (await queueFor(d.id, d.companyId, 'delete')) n += 1;
      // Deleted servers past their restore window lose their analytics data for good.
      const gone = await db
        .select({ id: deployments.id })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .innerJoin(analyticsTenants, eq(analyticsTenants.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'deleted'), lte(deploymentRuntime.restorableUntil, new Date())));
      for (const d of gone) await db.transaction((tx) => removeTenant(tx, d.id));
      return n + gone.length;
    },

    /** Servers past due beyond PAST_DUE_GRACE_DAYS are paused; paused ones paid again are resumed. */
    async 'past-due-pauses'() {
      const cutoff = new Date(Date.now() - config.PAST_DUE_GRACE_DAYS * DAY_MS);
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
  };
  return jobs;
}

export type ScheduledJobs = ReturnType<typeof createScheduledJobs>;
