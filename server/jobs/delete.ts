import { deploymentBackups } from '../db/schema';
import type { TaskHandler } from './types';

/**
 * Termination once the grace period has passed: a final snapshot (so the server can be restored
 * within RESTORE_WINDOW_SECONDS), then the machine is destroyed.
 */
export const remove: TaskHandler = {
  type: 'delete',
  steps: ['final_snapshot', 'destroy'],
  async run(ctx) {
    const machineId = ctx.runtime.machineId;
    if (!machineId) return;
    await ctx.step('final_snapshot', (key) => ctx.provider.snapshot(key, machineId), async (tx, r) => {
      await tx.insert(deploymentBackups).values({ deploymentId: ctx.deployment.id, kind: 'final', status: 'completed', snapshotId: r.snapshotId, sizeBytes: r.sizeBytes, taskId: ctx.task.id, completedAt: new Date() });
      await ctx.setRuntime(tx, { finalSnapshotId: r.snapshotId });
    });
    await ctx.step('destroy', async (key) => (await ctx.provider.destroy(key, machineId), {}), (tx) => ctx.setRuntime(tx, { machineId: null, healthState: 'unknown' }));
  },
  async finish(tx, ctx) {
    const now = new Date();
    await ctx.setRuntime(tx, { deletedAt: now, terminationScheduledAt: null, restorableUntil: new Date(now.getTime() + ctx.config.RESTORE_WINDOW_SECONDS * 1000) });
  },
};
