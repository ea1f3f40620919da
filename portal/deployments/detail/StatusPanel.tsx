import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DeploymentPopulated } from '../../../dataProvider/deployments';
import { ServerProgress } from '../ServerProgress';
import { dateTime, problemKey } from '../../../src/ui/servers/status';
import { StatusChip } from '../StatusChip';
import { Section } from '../../../src/ui/servers/Section';

const HEALTH_COLOR = { unknown: 'default', healthy: 'success', unhealthy: 'error' } as const;

/** Health in words: a server checked before but not since its last change waits for its next check. */
function healthLabel(h: DeploymentPopulated['health'], t: TFunction): string {
  if (!h.checkedAt) return t(`deployment.health.${h.state}`);
  const when = t('deployment.healthCheckedAt', { date: dateTime.format(new Date(h.checkedAt)) });
  return `${t(h.state === 'unknown' ? 'deployment.health.awaitingCheck' : `deployment.health.${h.state}`)} · ${when}`;
}

/** Status with progress while a task runs, health, address, and the spec's message when something failed. */
export function StatusPanel({ deployment: d }: { deployment: DeploymentPopulated }) {
  const { t } = useTranslation();
  const problem = problemKey(d);
  return (
    <Section title={t('deployment.overview')} testId="status-panel">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography color="text.secondary" sx={{ minWidth: 64 }}>
          {t('deployment.status')}
        </Typography>
        <StatusChip status={d.status} subscriptionStatus={d.billing.status} size="medium" />
        <Chip
          size="small"
          variant="outlined"
          color={HEALTH_COLOR[d.health.state]}
          data-testid="health-state"
          label={healthLabel(d.health, t)}
        />
      </Box>
      <ServerProgress task={d.latestTask} />
      {problem && (
        <Alert severity={d.status === 'comm_error' ? 'warning' : 'error'} role="alert" data-testid="server-problem">
          {t(problem)}
          {d.latestTask?.status === 'failed' && d.latestTask.lastError && (
            <Typography variant="body2" sx={{ mt: 0.5, opacity: 0.85 }}>
              {d.latestTask.lastError}
            </Typography>
          )}
        </Alert>
      )}
      {d.terminationScheduledAt && (
        <Alert severity="warning" data-testid="termination-notice">
          {t('servers.terminationScheduled', { date: dateTime.format(new Date(d.terminationScheduledAt)) })}
        </Alert>
      )}
      {d.status === 'deleted' && d.restorableUntil && (
        <Alert severity="info" data-testid="restorable-notice">
          {t('servers.restorableUntil', { date: dateTime.format(new Date(d.restorableUntil)) })}
        </Alert>
      )}
      {d.url && (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {t('deployment.address')}:{' '}
          </Box>
          {d.url}
        </Typography>
      )}
    </Section>
  );
}
