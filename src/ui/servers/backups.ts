import type { TFunction } from 'i18next';
import type { BackupDto } from '../../domain/deployments/schemas';
import { dateTime } from './status';

/** When the backup's data was read (what a restore brings back); a backup from before that was recorded, when it was asked for. */
export const backupTime = (b: Pick<BackupDto, 'takenAt' | 'createdAt'>): string => b.takenAt ?? b.createdAt;

/** The backup's time as every screen writes it: `Nov 27, 2026, 2:00 AM`. */
export const backupTimeText = (b: Pick<BackupDto, 'takenAt' | 'createdAt'>): string => dateTime.format(new Date(backupTime(b)));

/**
 * The question before a restore, in plain words: the data goes back to the backup's time and what
 * came in after it is gone. The customer's and the admin's server pages ask it alike.
 */
export function restoreBackupQuestion(t: TFunction, serverName: string, b: Pick<BackupDto, 'takenAt' | 'createdAt'>) {
  const date = backupTimeText(b);
  return { title: t('deployment.restoreBackupTitle', { name: serverName, date }), message: t('deployment.restoreBackupMessage', { date }) };
}
