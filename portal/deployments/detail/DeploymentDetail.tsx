import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useCompany } from '../../../dataProvider/companies/queries';
import { useDeploymentBackups, useDeploymentCertificate, useDeploymentEvents, useDeploymentHealthChecks, useDeploymentPopulated, type DeploymentActionAnswer } from '../../../dataProvider/deployments';
import { useDocumentTitle } from '../../../src/useDocumentTitle';
import { showToast } from '../../../src/ui/toast/toastStore';
import { BUSY_POLL_MS, IDLE_POLL_MS } from '../polling';
import { isBusy } from '../../../src/ui/servers/status';
import { StatusChip } from '../StatusChip';
import { ActionsPanel } from './ActionsPanel';
import { BackupsPanel } from './BackupsPanel';
import { DomainPanel } from '../../../src/ui/servers/DomainPanel';
import { HealthChecksPanel } from '../../../src/ui/servers/HealthChecksPanel';
import { useCustomerDomainCalls } from './customerDomainCalls';
import { MauPanel } from './MauPanel';
import { OpenDashboardButton } from './OpenDashboardButton';
import { PlanPanel } from './PlanPanel';
import { StatusPanel } from './StatusPanel';
import { TimelinePanel } from './TimelinePanel';
import { backupScheduleKind } from './foldTimeline';
import { CompletePayment } from '../CompletePayment';

const column = { display: { xs: 'contents', md: 'grid' }, gap: 2, minWidth: 0, alignContent: 'start' } as const;
const at = (order: number) => ({ order: { xs: order, md: 0 }, minWidth: 0, display: 'grid' }) as const;

/**
 * One server's page (deployments/{id}): status with progress (polled closely while a task runs),
 * plan and options, actions, domain and SSL, backups, the last health checks, the timeline and the MAU history.
 */
export function DeploymentDetail({ id, scope }: { id: string; scope: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle('titles.deployments');
  // Closely until the first answer and while a task runs.
  const server = useDeploymentPopulated(id, (s) => (!s || isBusy(s) ? BUSY_POLL_MS : IDLE_POLL_MS));
  const d = server.data;
  // After an action the timeline follows the server's pace.
  const timeline = useDeploymentEvents(id, !d || isBusy(d) ? BUSY_POLL_MS : IDLE_POLL_MS);
  // Closely while a backup is in progress (Back up now shows it until it completes) or a task runs.
  const backups = useDeploymentBackups(id, (list) => (list?.some((b) => b.status === 'pending') || !d || isBusy(d) ? BUSY_POLL_MS : IDLE_POLL_MS));
  // A restart or a requested check ends with a check: followed as closely as the timeline.
  const healthChecks = useDeploymentHealthChecks(id, !d || isBusy(d) ? BUSY_POLL_MS : IDLE_POLL_MS);
  // The certificate the edge serves: closely until one is issued (the edge obtains it in seconds).
  const certificate = useDeploymentCertificate(id, d?.domain ? `${d.domain.name} ${d.domain.ssl} ${d.domain.verified}` : '', (c) => (c?.state === 'issued' || c?.state === 'plain_http' || c?.state === 'no_edge' ? IDLE_POLL_MS : BUSY_POLL_MS));

  // SPEC §8: a server whose page cannot be loaded (never, not once) sends the user to the dashboard.
  const failedFirst = server.error !== null && d === undefined;
  useEffect(() => {
    if (!failedFirst) return;
    showToast({ text: t('deployment.loadError'), variant: 'destructive' });
    navigate(`${scope}/dashboard`, { replace: true });
  }, [failedFirst, navigate, scope, t]);

  // A company that cannot be read leaves the page read-only, as for a viewer.
  const company = useCompany(d?.company);
  const role = company.data?.role ?? (company.error ? 'viewer' : null);

  const domainCalls = useCustomerDomainCalls(id);
  const { put } = server;
  const reloadTimeline = timeline.refetch;
  const reloadBackups = backups.refetch;
  const reloadHealthChecks = healthChecks.refetch;
  const onAnswer = useCallback(
    (answer: DeploymentActionAnswer) => {
      if (d) put({ ...d, ...answer.deployment });
      void reloadTimeline();
      void reloadBackups();
      void reloadHealthChecks();
    },
    [d, put, reloadTimeline, reloadBackups, reloadHealthChecks],
  );

  if (!d) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 8, justifyContent: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography color="text.secondary">{t('deployment.loading')}</Typography>
      </Box>
    );
  }
  const canEdit = role === 'admin';
  return (
    <>
      <Link component={RouterLink} to={`${scope}/deployments`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
        <ArrowBack fontSize="small" aria-hidden />
        {t('deployment.back')}
      </Link>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 3 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', minWidth: 0 }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {d.name}
          </Typography>
          <StatusChip status={d.status} subscriptionStatus={d.billing.status} size="medium" />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {canEdit && <CompletePayment deployment={d} size="medium" onPaid={() => void server.refetch()} />}
          <OpenDashboardButton deployment={d} />
        </Box>
      </Box>
      {role === 'viewer' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('deployment.viewerNotice')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(300px, 2fr)' }, alignItems: 'start' }}>
        {/* Two columns on wide screens; on phones one, with the actions right after the status. */}
        <Box sx={column}>
          <Box sx={at(1)}>
            <StatusPanel deployment={d} />
          </Box>
          <Box sx={at(4)}>
            <DomainPanel deployment={d} canEdit={canEdit} onAnswer={onAnswer} calls={domainCalls} upgradeTo={`${scope}/server-builder/${d._id}/choose-plan`} certificate={certificate.data} />
          </Box>
          <Box sx={at(7)}>
            <HealthChecksPanel checks={healthChecks.data} />
          </Box>
          <Box sx={at(8)}>
            <TimelinePanel timeline={timeline.data} backupSchedule={backupScheduleKind(d.features)} />
          </Box>
        </Box>
        <Box sx={column}>
          {canEdit && (
            <Box sx={at(2)}>
              <ActionsPanel deployment={d} onAnswer={onAnswer} />
            </Box>
          )}
          <Box sx={at(3)}>
            <PlanPanel deployment={d} editTo={`${scope}/server-builder/${d._id}/choose-plan`} canEdit={canEdit} scope={scope} />
          </Box>
          <Box sx={at(5)}>
            <MauPanel deployment={d} />
          </Box>
          <Box sx={at(6)}>
            <BackupsPanel deployment={d} backups={backups.data} canEdit={canEdit} onAnswer={onAnswer} />
          </Box>
        </Box>
      </Box>
    </>
  );
}
