import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { deploymentsApi, type DeploymentView } from '../../dataProvider/deployments';
import { useSelection } from '../../src/companySelection';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type LocalTableSource } from '../../src/ui/table/DataTable';
import { nextBillText } from '../dashboard/ServerCard';
import { CompletePayment } from './CompletePayment';
import { MauBar } from './MauBar';
import { useServerPolling } from './polling';
import { ServerProgress } from './ServerProgress';
import { isBusy, shortDate } from '../../src/ui/servers/status';
import { StatusChip } from './StatusChip';

const loadList = (key: string) => {
  const [company = '', project] = key.split('/');
  return deploymentsApi.list(company, project || null);
};
const anyBusy = (servers: DeploymentView[]) => servers.some(isBusy);

const SUBSCRIPTION_COLOR = { active: 'success', pending: 'default', past_due: 'warning', paused: 'warning', canceled: 'default' } as const;

/** The selected project's servers as a table; each name opens the server's page. */
export function DeploymentList({ scope, onLoadError }: { scope: string; onLoadError: (error: unknown) => void }) {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  const key = companyId ? `${companyId}/${projectId ?? ''}` : null;
  const polled = useServerPolling(key, loadList, anyBusy);
  useEffect(() => {
    if (polled.error !== undefined) onLoadError(polled.error);
  }, [polled.error, onLoadError]);
  const source = useMemo<LocalTableSource<DeploymentView>>(() => ({ kind: 'local', rows: polled.data ?? [] }), [polled.data]);
  const columns = useMemo<DataTableColumn<DeploymentView>[]>(
    () => [
      {
        id: 'name',
        header: t('deployment.columns.name'),
        value: (d) => d.name,
        render: (d) => (
          <Link component={RouterLink} to={`${scope}/deployments/${d._id}`} sx={{ fontWeight: 600 }}>
            {d.name}
          </Link>
        ),
      },
      {
        id: 'status',
        header: t('deployment.columns.status'),
        value: (d) => t(`servers.status.${d.status}`),
        render: (d) => (
          <Box sx={{ display: 'grid', gap: 0.5, minWidth: 140 }}>
            <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              <StatusChip status={d.status} />
              {!d.flags.free && <Chip size="small" variant="outlined" color={SUBSCRIPTION_COLOR[d.billing.status]} label={t(`deploymentsPage.subscription.${d.billing.status}`)} data-testid="subscription-status" />}
            </Box>
            <ServerProgress task={d.latestTask} />
          </Box>
        ),
      },
      { id: 'plan', header: t('deployment.columns.plan'), value: (d) => d.plan.name },
      { id: 'mau', header: t('deployment.columns.mau'), value: (d) => d.mau.used, render: (d) => <MauBar used={d.mau.used} limit={d.mau.limit} compact /> },
      { id: 'nextBill', header: t('deployment.columns.nextBill'), value: (d) => d.billing.nextBilledAt ?? '', render: (d) => (
          <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
            {nextBillText(d, t)}
            <CompletePayment deployment={d} />
          </Box>
        ) },
      { id: 'region', header: t('deployment.columns.region'), value: (d) => d.region?.name ?? '', dynamic: true, defaultSelected: false },
      { id: 'createdAt', header: t('deployment.columns.createdAt'), value: (d) => new Date(d.createdAt), render: (d) => shortDate.format(new Date(d.createdAt)), dynamic: true, defaultSelected: true },
    ],
    [t, scope],
  );
  if (!key) return null;
  return (
    <DataTable
      id="deployments"
      label={t('deployment.listLabel')}
      columns={columns}
      source={source}
      getRowId={(d) => d._id}
      exportName="deployments"
      emptyTitle={polled.data ? t('servers.empty') : t('titles.loading')}
      emptyMessage={polled.data ? t('servers.emptyMessage') : ''}
      canCreate={false}
      defaultSort={{ field: 'createdAt', order: 'DESC' }}
      rowTestId="deployment-row"
    />
  );
}
