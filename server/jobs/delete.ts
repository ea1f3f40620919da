import { subscriptionOfServer } from '../services/billing';
import { addFinalBackup, failBackup } from '../services/deploymentBackups';
import { archiveStep } from './backup';
import type { TaskContext, TaskHandler } from './types';

/**
 * The final backup, named after its task so that a retried step finds the same row and archive;
 * the runtime keeps its id for the restore within the window.
 */
async function finalBackup(ctx: TaskContext) {
  const backupId = ctx.task.id;
  await ctx.step('final_backup_row', async () => ({}), (tx) => addFinalBackup(tx, { id: backupId, deploymentId: ctx.deployment.id, taskId: ctx.task.id }));
  await archiveStep(ctx, backupId);
  await ctx.step('keep_final_backup', async () => ({}), (tx) => ctx.setRuntime(tx, { finalSnapshotId: backupId }));
}

/**
 * Termination once the grace period has passed: a final backup of its data (so the server can be
 * restored within RESTORE_WINDOW_SECONDS), then the machine is destroyed and the subscription is
 * cancelled at the end of the period already paid.
 */
export const remove: TaskHandler = {
  type: 'delete',
  steps: ['final_backup_row', 'archive', 'keep_final_backup', 'destroy', 'stop_billing'],
  async run(ctx) {
    await finalBackup(ctx);
    const machineId = ctx.runtime.machineId;
    if (machineId) await ctx.step('destroy', async (key) => (await ctx.provider.destroy(key, machineId), {}), (tx) => ctx.setRuntime(tx, { machineId: null, healthState: 'unknown' }));
    await ctx.step('stop_billing', async () => {
      const sub = await subscriptionOfServer(ctx.db, ctx.deployment.id);
      // Usually stopped when the deletion was confirmed; the gateway asks again only if that did not happen.
      if (sub) await ctx.payments.cancelAtPeriodEnd(sub);
      return {};
    });
  },
  async fail(tx, ctx, error) {
    await failBackup(tx, ctx.task.id, error);
  },
  async finish(tx, ctx) {
    const now = new Date();
    await ctx.setRuntime(tx, { deletedAt: now, terminationScheduledAt: null, restorableUntil: new Date(now.getTime() + ctx.config.RESTORE_WINDOW_SECONDS * 1000) });
  },
};
