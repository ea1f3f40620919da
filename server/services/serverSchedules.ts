import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { removeTenant } from '../../analytics/server/services/tenants';
import type { Db } from '../db/client';
import { analyticsTenants, deploymentRuntime, deploymentTasks, deployments, subscriptions } from '../db/schema';
import type { TaskQueue } from '../queue';
import { recordAudit } from './audit';
import { enqueueTask, openTask } from './deploymentTasks';

/** The task types a schedule queues on the system's behalf. */
export type SystemTaskType = 'backup' | 'delete' | 'pause' | 'resume';

/**
 * The servers each schedule acts on (server/jobs/scheduled.ts), and the tasks the system queues for
 * them: reads over servers, their runtime and subscriptions, so that the schedules never query
 * tables themselves.
 */
export function createServerScheduleService({ db, queue }: { db: Db; queue: TaskQueue }) {
  return {
    /**
     * Queues a task unless the server already has one open, under the server's lock; audited as the
     * system's. `payload` writes what the task needs in the same transaction. True when queued.
     */
    queueSystemTask(deploymentId: string, companyId: string, type: SystemTaskType, payload: (tx: Db) => Promise<Record<string, unknown>> = async () => ({})) {
      return db.transaction(async (tx) => {
        await tx.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId)).for('update');
        if (await openTask(tx, deploymentId)) return false;
        const task = await enqueueTask(tx, queue, { deploymentId, type, payload: await payload(tx) });
        await recordAudit(tx, { actor: null, action: `deployment.${type}`, targetType: 'deployment', targetId: deploymentId, companyId, after: { taskId: task.id, scheduled: true } });
        return true;
      });
    },

    /** Running servers with their options (the backup schedule picks the backup option among them). */
    running: () => db.select({ id: deployments.id, companyId: deployments.companyId, planConfig: deployments.planConfig }).from(deployments).where(eq(deployments.status, 'running')),

    /** Running servers with a machine: what the scheduled health checks probe. */
    async healthTargets() {
      const rows = await db
        .select({ id: deployments.id, planConfig: deployments.planConfig, machineId: deploymentRuntime.machineId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'running'), isNotNull(deploymentRuntime.machineId)));
      return rows.flatMap((r) => (r.machineId ? [{ id: r.id, provider: r.planConfig.provider, machineId: r.machineId }] : []));
    },

    /** Servers whose deletion grace period has passed by `at` and that are not deleted (or failing to be). */
    dueTerminations: (at: Date) =>
      db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(lte(deploymentRuntime.terminationScheduledAt, at), sql`${deployments.status} not in ('deleted', 'error_deleting')`)),

    /** Deleted servers past their restore window lose their analytics data for good; returns how many. */
    async removeTenantsPastRestore(at: Date): Promise<number> {
      const gone = await db
        .select({ id: deployments.id })
        .from(deployments)
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .innerJoin(analyticsTenants, eq(analyticsTenants.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'deleted'), lte(deploymentRuntime.restorableUntil, at)));
      for (const d of gone) await db.transaction((tx) => removeTenant(tx, d.id));
      return gone.length;
    },

    /** Running servers whose subscription has been past due since `cutoff` or before. */
    overdue: (cutoff: Date) =>
      db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(and(eq(subscriptions.status, 'past_due'), lte(subscriptions.pastDueSince, cutoff), eq(deployments.status, 'running'))),

    /** Paused servers paid again whose last pause was the system's (a customer's pause stays). */
    paidAgain: () =>
      db
        .select({ id: deployments.id, companyId: deployments.companyId })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(
          and(
            eq(subscriptions.status, 'active'),
            eq(deployments.status, 'paused'),
            sql`(select t.requested_by is null from ${deploymentTasks} t where t.deployment_id = ${deployments.id} and t.type = 'pause' order by t.seq desc limit 1)`,
          ),
        ),
  };
}

export type ServerScheduleService = ReturnType<typeof createServerScheduleService>;
