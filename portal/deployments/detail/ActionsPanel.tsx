import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import HealthAndSafety from '@mui/icons-material/HealthAndSafety';
import LockOpen from '@mui/icons-material/LockOpen';
import RestartAlt from '@mui/icons-material/RestartAlt';
import Restore from '@mui/icons-material/Restore';
import Undo from '@mui/icons-material/Undo';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useServerActionMutation, type DeploymentActionAnswer, type DeploymentPopulated } from '../../../dataProvider/deployments';
import { clientConfig } from '../../../src/clientConfig';
import { dateTime, isTaskOpen } from '../../../src/ui/servers/status';
import { gracePeriodText } from '../../../src/ui/servers/gracePeriod';
import { Section } from '../../../src/ui/servers/Section';
import { useServerAction } from '../../../src/ui/servers/useServerAction';

interface Props {
  deployment: DeploymentPopulated;
  onAnswer: (answer: DeploymentActionAnswer) => void;
  graceSeconds?: number | null;
}

/**
 * What an admin can do to the server, each behind a confirmation: restart, health check, unlock
 * users, delete (with its grace period), cancel the deletion, restore a deleted server. Buttons
 * that cannot apply now are disabled; the server has the last word (409 with its reason).
 */
export function ActionsPanel({ deployment: d, onAnswer, graceSeconds = clientConfig.deletionGraceSeconds ?? null }: Props) {
  const { t } = useTranslation();
  const { run, pending } = useServerAction(onAnswer);
  const { mutateAsync: act } = useServerActionMutation(d._id);
  const name = d.name;
  const busy = pending || isTaskOpen(d.latestTask);
  const deleted = d.status === 'deleted';
  const scheduled = Boolean(d.terminationScheduledAt);
  const live = !deleted && !scheduled;
  const canRun = live && (d.status === 'running' || d.status.startsWith('error_')) && !busy;
  const running = live && d.status === 'running' && !busy;
  return (
    <Section title={t('deployment.actions')} testId="actions-panel">
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, auto)', md: '1fr 1fr' }, justifyContent: 'start' }}>
        <Button
          variant="outlined"
          startIcon={<RestartAlt />}
          disabled={!canRun}
          onClick={() => void run({ title: t('deployment.restartTitle', { name }), message: t('deployment.restartMessage'), confirmLabel: t('deployment.restart'), call: () => act({ action: 'restart' }) })}
        >
          {t('deployment.restart')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<HealthAndSafety />}
          disabled={!running}
          onClick={() => void run({ title: t('deployment.healthCheckTitle', { name }), message: t('deployment.healthCheckMessage'), confirmLabel: t('deployment.healthCheck'), call: () => act({ action: 'healthCheck' }) })}
        >
          {t('deployment.healthCheck')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<LockOpen />}
          disabled={!running}
          onClick={() => void run({ title: t('deployment.unlockUsersTitle', { name }), message: t('deployment.unlockUsersMessage'), confirmLabel: t('deployment.unlockUsers'), call: () => act({ action: 'unlockUsers' }) })}
        >
          {t('deployment.unlockUsers')}
        </Button>
        {live && (
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteOutlined />}
            disabled={busy}
            onClick={() =>
              void run({
                title: t('deployment.deleteTitle', { name }),
                message: graceSeconds === null ? t('deployment.deleteMessageUnknown') : t('deployment.deleteMessage', { period: gracePeriodText(graceSeconds, t) }),
                confirmLabel: t('deployment.delete'),
                danger: true,
                call: () => act({ action: 'remove' }),
                done: (answer) => t('deployment.deletionScheduled', { date: dateTime.format(new Date(answer.deployment.terminationScheduledAt ?? Date.now())) }),
              })
            }
          >
            {t('deployment.delete')}
          </Button>
        )}
        {scheduled && !deleted && (
          <Button
            variant="contained"
            color="warning"
            startIcon={<Undo />}
            disabled={pending}
            onClick={() =>
              void run({
                title: t('deployment.cancelTerminationTitle', { name }),
                message: t('deployment.cancelTerminationMessage'),
                confirmLabel: t('deployment.cancelTermination'),
                call: () => act({ action: 'cancelTermination' }),
                done: () => t('deployment.cancelTerminationMessage'),
              })
            }
          >
            {t('deployment.cancelTermination')}
          </Button>
        )}
        {deleted && (
          <Button
            variant="contained"
            startIcon={<Restore />}
            disabled={busy || !d.restorableUntil}
            onClick={() => void run({ title: t('deployment.restoreTitle', { name }), message: t('deployment.restoreMessage'), confirmLabel: t('deployment.restore'), call: () => act({ action: 'restore' }) })}
          >
            {t('deployment.restore')}
          </Button>
        )}
      </Box>
    </Section>
  );
}
