import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { gracePeriodText } from '../../src/ui/servers/gracePeriod';
import { clientConfig } from '../../src/clientConfig';
import type { AdminDeploymentAction, AdminDeploymentDetail, AdminTaskDetail } from '../../src/domain/admin/deployments';
import { confirm } from '../../src/ui/dialog/dialogStore';
import '../../src/serversI18n';
import { useRecordAction } from '../useRecordAction';

type Detail = AdminDeploymentDetail & { id: string };

interface ActionButton {
  action: AdminDeploymentAction;
  /** The customer's string keys: `deployment.<label>`, `deployment.<label>Title`, `deployment.<label>Message`. */
  label: string;
  show: boolean;
  enabled: boolean;
  danger?: boolean;
}

/**
 * The customer's server actions run by a platform admin, each behind the customer's
 * confirmation, plus a force retry of the server's failed task. Buttons that cannot apply now are
 * disabled; the server has the last word (409 with its reason, shown as a notification).
 */
export function ServerActions({ deployment: d, onDone }: { deployment: Detail; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const server = useRecordAction<Detail>('deployments', (_next, action) => {
    notify(t(`resources.deployments.done.${action}`), { type: 'success' });
    onDone();
  });
  const task = useRecordAction<AdminTaskDetail>('deploymentTasks', () => {
    notify(t('resources.taskDetail.done.retry'), { type: 'success' });
    onDone();
  });
  const latest = d.tasks[0];
  const open = latest?.status === 'queued' || latest?.status === 'running';
  const busy = open || server.isPending || task.isPending;
  const deleted = d.status === 'deleted';
  const scheduled = Boolean(d.terminationScheduledAt);
  const live = !deleted && !scheduled && (d.status === 'running' || d.status.startsWith('error_')) && d.url !== null;
  const grace = clientConfig.deletionGraceSeconds;

  const buttons: ActionButton[] = [
    { action: 'restart', label: 'restart', show: true, enabled: live && !busy },
    { action: 'health-check', label: 'healthCheck', show: true, enabled: live && d.status === 'running' && !busy },
    { action: 'unlock-users', label: 'unlockUsers', show: true, enabled: live && d.status === 'running' && !busy },
    { action: 'delete', label: 'delete', show: !deleted && !scheduled, enabled: !busy, danger: true },
    { action: 'cancel-termination', label: 'cancelTermination', show: scheduled && !deleted, enabled: !busy },
    { action: 'restore', label: 'restore', show: deleted, enabled: !busy && Boolean(d.restorableUntil) },
  ];

  async function run(b: ActionButton) {
    const message =
      b.action === 'delete' ? (grace == null ? t('deployment.deleteMessageUnknown') : t('deployment.deleteMessage', { period: gracePeriodText(grace, t) })) : t(`deployment.${b.label}Message`);
    const ok = await confirm({ type: b.danger ? 'danger' : 'secondary', title: t(`deployment.${b.label}Title`, { name: d.name }), message, labels: { confirm: t(`deployment.${b.label}`), cancel: t('deployment.keep') } });
    if (ok) server.mutate({ id: d._id, action: b.action });
  }

  async function forceRetry() {
    if (!latest) return;
    const ok = await confirm({
      type: 'secondary',
      title: t('resources.deployments.forceRetryTitle', { task: t(`servers.task.${latest.type}`), name: d.name }),
      message: t('resources.deployments.forceRetryMessage'),
      labels: { confirm: t('resources.deployments.forceRetry'), cancel: t('deployment.keep') },
    });
    if (ok) task.mutate({ id: latest._id, action: 'retry' });
  }

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }} data-testid="admin-server-actions">
      <Typography variant="h2" sx={{ fontSize: '1.125rem', mb: 1.5 }}>
        {t('deployment.actions')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {latest?.status === 'failed' && (
          <Button variant="contained" disabled={busy} onClick={() => void forceRetry()}>
            {t('resources.deployments.forceRetry')}
          </Button>
        )}
        {buttons
          .filter((b) => b.show)
          .map((b) => (
            <Button key={b.action} variant="outlined" color={b.danger ? 'error' : 'primary'} disabled={!b.enabled} onClick={() => void run(b)}>
              {t(`deployment.${b.label}`)}
            </Button>
          ))}
      </Box>
    </Paper>
  );
}
