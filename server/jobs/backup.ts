import { eq } from 'drizzle-orm';
import { deploymentBackups } from '../db/schema';
import { requireMachine } from './machine';
import type { TaskHandler } from './types';

/** A snapshot of the server, recorded as the backup row the task was created with. */
export const backup: TaskHandler = {
  type: 'backup',
  steps: ['snapshot'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    const backupId = String(ctx.task.payload.backupId);
    await ctx.step('snapshot', (key) => ctx.provider.snapshot(key, machineId), async (tx, r) => {
      await tx.update(deploymentBackups).set({ status: 'completed', snapshotId: r.snapshotId, sizeBytes: r.sizeBytes, completedAt: new Date() }).where(eq(deploymentBackups.id, backupId));
    });
  },
  async fail(tx, ctx) {
    await tx.update(deploymentBackups).set({ status: 'failed' }).where(eq(deploymentBackups.id, String(ctx.task.payload.backupId)));
  },
};
