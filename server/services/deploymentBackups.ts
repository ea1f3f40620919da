import { and, eq, inArray, lt, lte, max, sql } from 'drizzle-orm';
import { backupScheduleOf, type BackupSchedule } from '../../src/domain/deployments/schemas';
import type { BackupStore } from '../backups/store';
import { removeBackups, type TakenBackup } from '../backups/tenantBackups';
import type { Db } from '../db/client';
import { deploymentBackups, deploymentRuntime, deployments, features } from '../db/schema';

const DAY_MS = 86_400_000;
/** The kinds the backup schedule takes (the others are the customer's and the final one). */
const SCHEDULED_KINDS = ['nightly', 'hourly'] as const;

/**
 * Servers' backup rows as the schedules and the backup tasks keep them: which option each server
 * has, when it was last backed up, the rows past their retention or restore window (removed with
 * their archives, `removeBackups`), and the rows a task completes or fails.
 */
export function createDeploymentBackupService({ db, store }: { db: Db; store: BackupStore }) {
  return {
    /** The catalogue's backup options, by feature id: how often and how long each keeps. */
    async scheduleOptions(): Promise<Map<string, BackupSchedule>> {
      const rows = await db.select({ id: features.id, code: features.code }).from(features).where(eq(features.type, 'backup'));
      return new Map(rows.map((f) => [f.id, backupScheduleOf(f.code)]));
    },

    /** When each server's last scheduled backup was made (epoch ms; 0 when the row has no time). */
    async lastScheduled(): Promise<Map<string, number>> {
      const rows = await db
        .select({ id: deploymentBackups.deploymentId, at: max(deploymentBackups.createdAt) })
        .from(deploymentBackups)
        .where(inArray(deploymentBackups.kind, [...SCHEDULED_KINDS]))
        .groupBy(deploymentBackups.deploymentId);
      return new Map(rows.map((r) => [r.id, r.at ? new Date(r.at).getTime() : 0]));
    },

    /** Removes the server's scheduled backups older than `keepDays` before `at` (the archive goes with its row). */
    async removeExpired(deploymentId: string, keepDays: number, at: Date): Promise<number> {
      const expired = await db
        .select({ id: deploymentBackups.id, storeKey: deploymentBackups.storeKey })
        .from(deploymentBackups)
        .where(and(eq(deploymentBackups.deploymentId, deploymentId), inArray(deploymentBackups.kind, [...SCHEDULED_KINDS]), lt(deploymentBackups.createdAt, new Date(at.getTime() - keepDays * DAY_MS)), sql`${deploymentBackups.status} <> 'pending'`));
      return removeBackups(db, store, expired);
    },

    /** A scheduled backup's row, in the transaction that queues its task; returns its id. */
    async addScheduled(tx: Db, deploymentId: string, kind: BackupSchedule['kind'], at: Date): Promise<string | undefined> {
      const [b] = await tx.insert(deploymentBackups).values({ deploymentId, kind, createdAt: at }).returning({ id: deploymentBackups.id });
      return b?.id;
    },

    /** Removes every backup of deleted servers past their restore window, the final one included: nothing can restore them any more. */
    async removeClosed(at: Date): Promise<number> {
      const closed = await db
        .select({ id: deploymentBackups.id, storeKey: deploymentBackups.storeKey })
        .from(deploymentBackups)
        .innerJoin(deployments, eq(deployments.id, deploymentBackups.deploymentId))
        .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
        .where(and(eq(deployments.status, 'deleted'), lte(deploymentRuntime.restorableUntil, at)));
      return removeBackups(db, store, closed);
    },
  };
}

export type DeploymentBackupService = ReturnType<typeof createDeploymentBackupService>;

/** The final backup's row before a server is destroyed, named by its task (a retried step finds it again). */
export async function addFinalBackup(tx: Db, row: { id: string; deploymentId: string; taskId: string }): Promise<void> {
  await tx.insert(deploymentBackups).values({ ...row, kind: 'final' }).onConflictDoNothing();
}

/** Completes a backup row with its stored archive, in the transaction that logs the task's step. */
export async function completeBackup(tx: Db, backupId: string, r: TakenBackup): Promise<void> {
  await tx
    .update(deploymentBackups)
    .set({ status: 'completed', storeKey: r.storeKey, sizeBytes: r.sizeBytes, sha256: r.sha256, manifest: r.manifest, takenAt: new Date(r.takenAt), error: null, completedAt: new Date() })
    .where(eq(deploymentBackups.id, backupId));
}

/** Marks a backup row failed with the task's error, in the transaction that fails the task. */
export async function failBackup(tx: Db, backupId: string, error: string): Promise<void> {
  await tx.update(deploymentBackups).set({ status: 'failed', error }).where(eq(deploymentBackups.id, backupId));
}
