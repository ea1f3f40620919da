import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { useGetOne } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { subscriptionState } from '../../src/domain/billing/rules';
import { formatAmount } from '../../src/ui/format';
import { billingText, deploymentBillingFacts } from '../../src/ui/servers/billingText';
import { taxLabelText } from '../../src/ui/taxLabel';
import { statusTone } from '../../src/ui/servers/status';
import { HealthChecksPanel } from '../../src/ui/servers/HealthChecksPanel';
import type { AdminDeploymentDetail } from '../../src/domain/admin/deployments';
import { formatDateTime } from '../formatDate';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';
import { useServerLabels } from '../serverLabels';
import { BackupsSection } from './BackupsSection';
import { DomainSection } from './DomainSection';
import { ServerActions } from './ServerActions';

type DeploymentRecord = AdminDeploymentDetail & { id: string };

const open = (d: DeploymentRecord | undefined) => Boolean(d?.tasks?.some((task) => task.status === 'queued' || task.status === 'running'));

/** A server's admin page (`/admin/deployments/{id}`): what its customer sees, its company, its tasks, and the customer's actions. */
export function DeploymentShow() {
  const { t } = useTranslation();
  const labels = useServerLabels();
  const { id = '' } = useParams();
  // While a task of the server is open the page follows the worker.
  const { data: d, isPending, refetch } = useGetOne<DeploymentRecord>('admin/deployments', { id }, { refetchInterval: (q) => (open(q.state.data) ? 2000 : false) });
  // react-admin shows the list's row while the page loads: wait for the page's own fields.
  if (isPending || !d?.tasks) return <LinearProgress aria-label={t('admin.loading')} />;
  const f = (key: string) => t(`resources.deployments.fields.${key}`);
  const chip = (label: string, value: string) => <Chip size="small" variant="outlined" label={`${label}: ${value}`} />;
  const tone = statusTone(d.status);
  const facts = deploymentBillingFacts(d);
  return (
    <>
      <RecordHeader name="deployments" title={d.name} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Chip size="small" color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} label={labels.deploymentStatus(d.status)} data-testid="deployment-status" data-status={d.status} />
        <Chip size="small" variant="outlined" component={RouterLink} to={`/admin/companies/${d.company}`} clickable label={`${f('companyName')}: ${d.companyName}`} />
        {chip(f('planName'), d.plan.name)}
        {chip(f('regionName'), d.region?.name ?? '—')}
        {/* Once billing stops the billing line says so; the status ("Active") would contradict it. */}
        {subscriptionState(facts).kind === 'status' && chip(f('subscriptionStatus'), labels.subscriptionStatus(d.subscriptionStatus))}
        <Chip size="small" variant="outlined" data-testid="billing-line" label={billingText(facts, d.billing ? `${formatAmount(d.billing.recurring.amount)} ${taxLabelText(d.billing.bill.basis, t)}` : '', t)} />
        {chip(t('resources.deployments.mau'), t('resources.deployments.mauOf', { used: d.mau.used.toLocaleString('en-US'), limit: d.mau.limit.toLocaleString('en-US') }))}
        {chip(t('resources.deployments.health'), t(`deployment.health.${d.health.state}`))}
        {chip(f('createdAt'), formatDateTime(d.createdAt))}
        {d.terminationScheduledAt && chip(t('deployment.delete'), formatDateTime(d.terminationScheduledAt))}
      </Box>
      {d.url && (
        <Box sx={{ mb: 2, overflowWrap: 'anywhere' }}>
          <Link href={d.url} target="_blank" rel="noopener">
            {d.url}
          </Link>
        </Box>
      )}
      <ServerActions deployment={d} onDone={() => void refetch()} />
      <DomainSection deployment={d} onDone={() => void refetch()} />
      <SectionTable
        title={t('resources.deploymentTasks.name')}
        rows={d.tasks}
        getRowId={(task) => task._id}
        empty={t('admin.none')}
        columns={[
          { header: t('resources.deploymentTasks.fields.type'), cell: (task) => <Link component={RouterLink} to={`/admin/taskDetail/${task._id}`}>{labels.taskType(task.type)}</Link> },
          { header: t('resources.deploymentTasks.fields.status'), cell: (task) => labels.taskStatus(task.status) },
          { header: t('resources.deploymentTasks.fields.attempts'), cell: (task) => task.attempts },
          { header: t('resources.deploymentTasks.fields.lastError'), cell: (task) => task.lastError ?? '' },
          { header: t('resources.deploymentTasks.fields.createdAt'), cell: (task) => formatDateTime(task.createdAt) },
        ]}
      />
      <BackupsSection deployment={d} onDone={() => void refetch()} />
      <Box sx={{ mt: 3 }}>
        <HealthChecksPanel checks={d.healthChecks} />
      </Box>
    </>
  );
}
