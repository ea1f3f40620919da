import { and, eq, inArray } from 'drizzle-orm';
import type { BackupManifestSummary } from '../../src/domain/deployments/schemas';
import type { Db, SnapshotReader } from '../db/client';
import { analyticsTenants, deploymentBackups } from '../db/schema';
import { ArchiveRefused, discard, readTenantArchive, writeTenantArchive, type VerifiedArchive } from './archive';
import type { BackupStore } from './store';

type BackupRow = typeof deploymentBackups.$inferSelect;

/** Where a backup's archive lives in the store. */
export const backupKey = (deploymentId: string, backupId: string) => `${deploymentId}/${backupId}.tar.gz`;

/** The tenant (analytics data) of a server; refused when it has none (never provisioned, or removed for good). */
export async function tenantOf(db: Db, deploymentId: string): Promise<string> {
  const [tenant] = await db.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId));
  if (!tenant) throw new ArchiveRefused("the server's analytics data no longer exists");
  return tenant.id;
}

/** What a completed backup row records. */
export interface TakenBackup {
  storeKey: string;
  sizeBytes: number;
  sha256: string;
  takenAt: string;
  manifest: BackupManifestSummary;
}

/**
 * Archives the server's tenant and stores it. The database work ends before the upload starts;
 * the stored size is checked against the file, so a row is only ever completed for a whole archive.
 * Running it again (a retried task) writes the same key again.
 */
export async function takeBackup(db: Db, store: BackupStore, target: { deploymentId: string; backupId: string }, snapshot: (() => Promise<SnapshotReader>) | null = null): Promise<TakenBackup> {
  const tenantId = await tenantOf(db, target.deploymentId);
  const written = await writeTenantArchive(db, { tenantId, ...target }, snapshot);
  try {
    const storeKey = backupKey(target.deploymentId, target.backupId);
    await store.put(storeKey, written.file);
    const stored = await store.size(storeKey);
    if (stored !== written.sizeBytes) throw new Error(`the backup store holds ${stored ?? 'no'} bytes of a ${written.sizeBytes}-byte archive`);
    const { schemaVersion, tables, takenAt } = written.manifest;
    return { storeKey, sizeBytes: written.sizeBytes, sha256: written.sha256, takenAt, manifest: { schemaVersion, tables: tables.map((t) => ({ table: t.table, rows: t.rows })) } };
  } finally {
    await discard(written.dir);
  }
}

/** The backup row's archive, fetched and verified against what was recorded when it was stored. */
export async function fetchVerified(store: BackupStore, backup: BackupRow, deploymentId: string): Promise<VerifiedArchive> {
  if (backup.status !== 'completed' || !backup.storeKey) throw new ArchiveRefused('the backup has no archive to restore');
  const source = await store.get(backup.storeKey);
  if (!source) throw new ArchiveRefused('the archive is missing from the backup store');
  return readTenantArchive(source, { deploymentId, backupId: backup.id, sha256: backup.sha256, sizeBytes: backup.sizeBytes });
}

/**
 * Removes backups and their archives: the archive first, then the row, so a crash between the two
 * leaves a row whose archive is gone (the next run removes it), never an archive nobody lists.
 */
export async function removeBackups(db: Db, store: BackupStore, rows: Pick<BackupRow, 'id' | 'storeKey'>[]): Promise<number> {
  for (const row of rows) if (row.storeKey) await store.delete(row.storeKey);
  if (rows.length === 0) return 0;
  await db.delete(deploymentBackups).where(inArray(deploymentBackups.id, rows.map((r) => r.id)));
  return rows.length;
}

/** A server's backup by id, or null. */
export async function backupOf(db: Db, deploymentId: string, backupId: string): Promise<BackupRow | null> {
  const [row] = await db.select().from(deploymentBackups).where(and(eq(deploymentBackups.id, backupId), eq(deploymentBackups.deploymentId, deploymentId)));
  return row ?? null;
}
