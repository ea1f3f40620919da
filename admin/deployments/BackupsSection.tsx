import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useNotify } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { AdminDeploymentDetail } from '../../src/domain/admin/deployments';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { formatBytes } from '../../src/ui/numbers';
import { backupTime, restoreBackupQuestion } from '../../src/ui/servers/backups';
import '../../src/serversI18n';
import { formatDateTime } from '../formatDate';
import { SectionTable } from '../SectionTable';
import { useRecordAction } from '../useRecordAction';

type Detail = AdminDeploymentDetail & { id: string };

/**
 * A server's newest backups on its admin page: when the data was read, kind, status (with why a
 * failed one failed) and archive size; a restorable one can be restored, as on the customer's page.
 */
export function BackupsSection({ deployment: d, onDone }: { deployment: Detail; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const restore = useRecordAction<Detail>('deployments', () => {
    notify(t('resources.deployments.done.restore'), { type: 'success' });
    onDone();
  });
  const open = d.tasks.some((task) => task.status === 'queued' || task.status === 'running');
  async function run(backup: Detail['backups'][number]) {
    const ok = await confirm({ type: 'danger', ...restoreBackupQuestion(t, d.name, backup), labels: { confirm: t('deployment.restore'), cancel: t('deployment.keep') } });
    if (ok) restore.mutate({ id: d._id, action: 'restore', data: { backupId: backup._id } });
  }
  return (
    <SectionTable
      title={t('deployment.backups.title')}
      rows={d.backups}
      getRowId={(b) => b._id}
      empty={t('deployment.backups.none')}
      columns={[
        { header: t('deployment.backups.createdAt'), cell: (b) => formatDateTime(backupTime(b)) },
        { header: t('deployment.backups.columns.kind'), cell: (b) => t(`deployment.backups.kind.${b.kind}`) },
        {
          header: t('deployment.backups.columns.status'),
          cell: (b) => (b.status === 'failed' && b.error ? <Box component="span" sx={{ display: 'block', maxWidth: 360, whiteSpace: 'normal', overflowWrap: 'anywhere', color: 'error.main' }}>{t('deployment.backups.failedBecause', { error: b.error })}</Box> : t(`deployment.backups.status.${b.status}`)),
        },
        { header: t('deployment.backups.columns.size'), cell: (b) => (b.sizeBytes === null ? '—' : formatBytes(b.sizeBytes)) },
        {
          header: t('deployment.actions'),
          cell: (b) =>
            b.restorable && d.status !== 'deleted' ? (
              <Button size="small" disabled={open || restore.isPending || Boolean(d.terminationScheduledAt)} onClick={() => void run(b)}>
                {t('deployment.backups.restore')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}
