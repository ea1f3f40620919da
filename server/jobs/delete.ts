import { eq } from 'drizzle-orm';
import { deploymentBackups, subscriptions } from '../db/schema';
import type { TaskContext, TaskHandler } from './types';

async function destroyMachine(ctx: TaskContext, machineId: string) {
  await ctx.step('final_snapshot', (key) => ctx.provider.snapshot(key, machineId), async (tx, r) => {
    await tx.insert(deploymentBackups).values({ deploymentId: ctx.deployment.id, kind: 'final', status: 'completed', snapshotId: r.snapshotId, sizeBytes: r.sizeBytes, taskId: ctx.task.id, completedAt: new Date() });
    await ctx.setRuntime(tx, { finalSnapshotId: r.snapshotId });
  });
  await ctx.step('destroy', async (key) => (await ctx.provider.destroy(key, machineId), {}), (tx) => ctx.setRuntime(tx, { machineId: null, healthState: 'unknown' }));
}

/**
 * Termination once the grace period has passed: a final snapshot (so the server can be restored
 * within RESTORE_WINDOW_SECONDS), then the machine is destroyed and the subscription is cancelled
 * at the end of the period already paid.
 */
export const remove: TaskHandler = {
  type: 'delete',
  steps: ['final_snapshot', 'destroy', 'stop_billing'],
  async run(ctx) {
    const machineId = ctx.runtime.machineId;
    if (machineId) await destroyMachine(ctx, machineId);
    await ctx.step('stop_billing', async () => {
      const [sub] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.deploymentId, ctx.deployment.id));
      // Usually stopped when the deletion was confirmed; the gateway asks again only if that did not happen.
      if (sub) await ctx.payments.cancelAtPeriodEnd(sub);
      return {};
    });
  },
  async finish(tx, ctx) {
    const now = new Date();
    await ctx.setRuntime(tx, { deletedAt: now, terminationScheduledAt: null, restorableUntil: new Date(now.getTime() + ctx.config.RESTORE_WINDOW_SECONDS * 1000) });
  },
};
