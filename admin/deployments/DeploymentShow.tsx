import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { useGetOne } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { AdminDeploymentDetail } from '../../src/domain/schemas/adminDeployments';
import { formatDateTime } from '../formatDate';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';

type DeploymentRecord = AdminDeploymentDetail & { id: string };

/** A server's admin page (`/admin/deployments/{id}`): what its customer sees, its company, and its tasks. */
export function DeploymentShow() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: d, isPending } = useGetOne<DeploymentRecord>('admin/deployments', { id });
  // react-admin shows the list's row while the page loads: wait for the page's own fields.
  if (isPending || !d?.tasks) return <LinearProgress aria-label={t('admin.loading')} />;
  const f = (key: string) => t(`resources.deployments.fields.${key}`);
  const chip = (label: string, value: string) => <Chip size="small" variant="outlined" label={`${label}: ${value}`} />;
  return (
    <>
      <RecordHeader name="deployments" title={d.name} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Chip size="small" color={d.status === 'running' ? 'success' : d.status.startsWith('error') ? 'error' : 'default'} label={d.status} />
        <Chip size="small" variant="outlined" component={RouterLink} to={`/admin/companies/${d.company}`} clickable label={`${f('companyName')}: ${d.companyName}`} />
        {chip(f('planCode'), d.plan.name)}
        {chip(f('regionName'), d.region?.name ?? '—')}
        {chip(f('subscriptionStatus'), d.subscriptionStatus ?? '—')}
        {chip(t('resources.deployments.mau'), `${d.mau.used} / ${d.mau.limit}`)}
        {chip(t('resources.deployments.health'), d.health.state)}
        {chip(f('createdAt'), formatDateTime(d.createdAt))}
      </Box>
      {d.url && (
        <Box sx={{ mb: 2 }}>
          <Link href={d.url} target="_blank" rel="noopener">
            {d.url}
          </Link>
        </Box>
      )}
      <SectionTable
        title={t('resources.deploymentTasks.name')}
        rows={d.tasks}
        getRowId={(task) => task._id}
        empty={t('admin.none')}
        columns={[
          { header: t('resources.deploymentTasks.fields.type'), cell: (task) => <Link component={RouterLink} to={`/admin/taskDetail/${task._id}`}>{task.type}</Link> },
          { header: t('resources.deploymentTasks.fields.status'), cell: (task) => task.status },
          { header: t('resources.deploymentTasks.fields.attempts'), cell: (task) => task.attempts },
          { header: t('resources.deploymentTasks.fields.lastError'), cell: (task) => task.lastError ?? '' },
          { header: t('resources.deploymentTasks.fields.createdAt'), cell: (task) => formatDateTime(task.createdAt) },
        ]}
      />
    </>
  );
}
