import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { BackupDownloadQuery } from '../../src/domain/deployments/schemas';
import type { BackupStore } from '../backups/store';
import type { Db } from '../db/client';
import { deploymentBackups, deployments } from '../db/schema';
import { AppError } from '../errors';
import { UUID } from './plans';
import type { Keyring } from './secrets';

const PURPOSE = 'backup-download';
const claims = (backupId: string, exp: string) => `${backupId}.${exp}`;

/** Signs a download of one backup's archive, valid until `expiresAt`. */
export function signBackupLink(keyring: Keyring, backupId: string, expiresAt: Date): BackupDownloadQuery {
  const exp = String(Math.floor(expiresAt.getTime() / 1000));
  return { backup: backupId, exp, sig: keyring.mac(PURPOSE, claims(backupId, exp)) };
}

export interface BackupDownload {
  stream: Readable;
  fileName: string;
  sizeBytes: number | null;
  sha256: string | null;
}

/**
 * Opens the archive a signed link names. The link is the authority (made for a company admin and
 * audited when made): a forged or altered link is refused, an expired one says so, and a backup
 * removed since is not found.
 */
export function createBackupDownloads({ db, keyring, store }: { db: Db; keyring: Keyring; store: BackupStore }) {
  return {
    async open(link: BackupDownloadQuery, now = new Date()): Promise<BackupDownload> {
      if (!UUID.test(link.backup) || !keyring.verifyMac(PURPOSE, claims(link.backup, link.exp), link.sig)) throw new AppError('BACKUP_LINK_INVALID');
      if (Number(link.exp) * 1000 <= now.getTime()) throw new AppError('BACKUP_LINK_EXPIRED');
      const [row] = await db
        .select({ backup: deploymentBackups, serverName: deployments.name })
        .from(deploymentBackups)
        .innerJoin(deployments, eq(deployments.id, deploymentBackups.deploymentId))
        .where(eq(deploymentBackups.id, link.backup));
      if (!row?.backup.storeKey || row.backup.status !== 'completed') throw new AppError('BACKUP_NOT_FOUND');
      const stream = await store.get(row.backup.storeKey);
      if (!stream) throw new AppError('BACKUP_NOT_FOUND');
      const slug = row.serverName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'server';
      const at = (row.backup.takenAt ?? row.backup.createdAt).toISOString().slice(0, 16).replace(':', '').replace('T', '-');
      return { stream, fileName: `${slug}-backup-${at}.tar.gz`, sizeBytes: row.backup.sizeBytes, sha256: row.backup.sha256 };
    },
  };
}

export type BackupDownloads = ReturnType<typeof createBackupDownloads>;
