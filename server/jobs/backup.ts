import { ArchiveRefused } from '../backups/archive';
import { takeBackup } from '../backups/tenantBackups';
import { completeBackup, failBackup } from '../services/deploymentBackups';
import { TaskRefused, type TaskContext, type TaskHandler } from './types';

/** Archives the server's analytics data into the backup store and completes the backup row with it. */
export async function archiveStep(ctx: TaskContext, backupId: string): Promise<void> {
  await ctx.step(
    'archive',
    async () => {
      try {
        return { ...(await takeBackup(ctx.db, ctx.backups, { deploymentId: ctx.deployment.id, backupId }, ctx.snapshot)) };
      } catch (err) {
        throw err instanceof ArchiveRefused ? new TaskRefused(err.message) : err;
      }
    },
    (tx, r) => completeBackup(tx, backupId, r),
  );
}

/** A backup of the server's data, recorded on the backup row the task was created with. */
export const backup: TaskHandler = {
  type: 'backup',
  steps: ['archive'],
  async run(ctx) {
    await archiveStep(ctx, String(ctx.task.payload.backupId));
  },
  async fail(tx, ctx, error) {
    await failBackup(tx, String(ctx.task.payload.backupId), error);
  },
};
