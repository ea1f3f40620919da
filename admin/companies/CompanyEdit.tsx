import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { useGetOne } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { AdminCompanyDetail } from '../../src/domain/admin/schemas';
import { formatDateTime } from '../formatDate';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';
import { CompanyForm } from './CompanyForm';
import { ViewAsButton } from './ViewAsButton';
import { subscriptionText } from '../../src/ui/servers/billingText';
import { useServerLabels } from '../serverLabels';
// The members' roles are management's strings; that bundle loads with the management screens.
import '../../src/managementI18n';

type CompanyRecord = AdminCompanyDetail & { id: string };
type Subscription = AdminCompanyDetail['subscriptions'][number];

/** A company's page (`/admin/companies/{id}`): members, projects, servers, subscriptions, plan group; edit; view as its admin. */
export function CompanyEdit() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const labels = useServerLabels();
  const { data: company, refetch, isPending } = useGetOne<CompanyRecord>('admin/companies', { id });
  // react-admin shows the list's row while the page loads: wait for the page's own fields.
  if (isPending || !company?.people) return <LinearProgress aria-label={t('admin.loading')} />;
  const r = (key: string) => t(`resources.companies.${key}`);
  const serverOf = (s: Subscription) => company.deployments.find((d) => d._id === s.deploymentId);
  // As the customer's billing reads it: "Deleting on …; no further charge" rather than "Active" once billing stops.
  const subscriptionLine = (s: Subscription) => {
    const d = serverOf(s);
    return subscriptionText({ free: d?.free ?? false, status: s.status, deleted: d?.status === 'deleted', deletingOn: d?.terminationScheduledAt ?? null, nextBilledAt: s.nextBilledAt, scheduledChange: s.scheduledChange }, t);
  };
  return (
    <>
      <RecordHeader name="companies" title={company.name} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {company.size && <Chip size="small" label={t(`companySizes.${company.size}`)} />}
        <Chip size="small" variant="outlined" label={`${r('fields.planGroupName')}: ${company.planGroupName ?? r('publicPlans')}`} />
        <Chip size="small" variant="outlined" label={`${r('fields.createdAt')}: ${formatDateTime(company.createdAt)}`} />
      </Box>
      <ViewAsButton company={company} />
      <CompanyForm company={company} onSaved={() => void refetch()} />
      <SectionTable
        title={r('people')}
        rows={company.people}
        getRowId={(p) => p._id}
        empty={t('admin.none')}
        columns={[
          { header: t('resources.users.fields.email'), cell: (p) => <Link component={RouterLink} to={`/admin/users/${p._id}`}>{p.email}</Link> },
          { header: t('resources.users.fields.firstName'), cell: (p) => `${p.firstName} ${p.lastName}` },
          { header: r('role'), cell: (p) => t(`management.roles.${p.role}`) },
        ]}
      />
      <SectionTable title={r('projects')} rows={company.projects} getRowId={(p) => p._id} empty={t('admin.none')} columns={[{ header: r('fields.name'), cell: (p) => p.name }]} />
      <SectionTable
        title={r('deployments')}
        rows={company.deployments}
        getRowId={(d) => d._id}
        empty={t('admin.none')}
        columns={[
          { header: r('fields.name'), cell: (d) => <Link component={RouterLink} to={`/admin/deployments/${d._id}`}>{d.name}</Link> },
          { header: r('status'), cell: (d) => labels.serverState(d, company.subscriptions.find((s) => s.deploymentId === d._id)?.status) },
          { header: r('plan'), cell: (d) => d.planName },
          { header: r('free'), cell: (d) => (d.free ? t('admin.yes') : t('admin.no')) },
          { header: r('fields.createdAt'), cell: (d) => formatDateTime(d.createdAt) },
        ]}
      />
      <SectionTable
        title={r('subscriptions')}
        rows={company.subscriptions}
        getRowId={(s) => s._id}
        empty={t('admin.none')}
        columns={[
          { header: r('server'), cell: (s) => serverOf(s)?.name ?? s.deploymentId },
          { header: r('status'), cell: (s) => subscriptionLine(s) },
          { header: r('cycle'), cell: (s) => labels.cycle(s.cycle) },
          { header: r('total'), cell: (s) => labels.perCycle(s.total, s.cycle) },
          { header: r('vendor'), cell: (s) => labels.paymentProvider(s.paymentProvider) },
        ]}
      />
    </>
  );
}
