import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { loadDeploymentPage, useDeploymentsPage, type DeploymentPageQuery, type DeploymentView } from '../../dataProvider/deployments';
import { useSelection } from '../../src/companySelection';
import { DEPLOYMENT_SORT_FIELDS, type DeploymentSortField } from '../../src/domain/deployments/listQuery';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type ServerTableSource } from '../../src/ui/table/DataTable';
import type { TableQuery } from '../../src/ui/table/tableQuery';
import { nextBillText } from '../dashboard/ServerCard';
import { CompletePayment } from './CompletePayment';
import { MauBar } from './MauBar';
import { serverPollMs } from './polling';
import { ServerProgress } from './ServerProgress';
import { subscriptionState } from '../../src/domain/billing/rules';
import { deploymentBillingFacts } from '../../src/ui/servers/billingText';
import { isAwaitingPayment, shortDate, statusLabelKey } from '../../src/ui/servers/status';
import { StatusChip } from './StatusChip';

/** The most rows an export asks for: the API's largest page. */
const EXPORT_ROWS = 1000;
const isSortField = (field: string): field is DeploymentSortField => (DEPLOYMENT_SORT_FIELDS as readonly string[]).includes(field);

/** The table's query in the API's terms; a sort the server has no index for falls back to newest first. */
export function pageQueryOf(company: string, project: string | null, query: TableQuery): DeploymentPageQuery {
  const sort = isSortField(query.sort.field) ? { field: query.sort.field, order: query.sort.order } : { field: 'createdAt' as const, order: 'DESC' as const };
  return { company, project, page: query.page, perPage: query.perPage, sort, filter: query.searchQuery ? { q: query.searchQuery } : undefined };
}

const SUBSCRIPTION_COLOR = { active: 'success', pending: 'default', past_due: 'warning', paused: 'warning', canceled: 'default' } as const;

/** The selected project's servers as a table; each name opens the server's page. */
export function DeploymentList({ scope, onLoadError }: { scope: string; onLoadError: (error: unknown) => void }) {
  const { t } = useTranslation();
  const { companyId, projectId } = useSelection();
  // Set by the table on mount (its restored controls) and on every change of page, sort or search.
  const [tableQuery, setTableQuery] = useState<TableQuery | null>(null);
  const query = companyId && tableQuery ? pageQueryOf(companyId, projectId ?? null, tableQuery) : null;
  const page = useDeploymentsPage(query, serverPollMs);
  useEffect(() => {
    if (page.error) onLoadError(page.error);
  }, [page.error, onLoadError]);
  const source = useMemo<ServerTableSource<DeploymentView>>(
    () => ({
      kind: 'server',
      rows: page.data?.rows ?? [],
      total: page.data?.total,
      loading: page.isPending || page.isPlaceholderData,
      onQueryChange: setTableQuery,
      exportRows: async (q) => (companyId ? (await loadDeploymentPage({ ...pageQueryOf(companyId, projectId ?? null, q), page: 1, perPage: EXPORT_ROWS })).rows : []),
    }),
    [page.data, page.isPending, page.isPlaceholderData, companyId, projectId],
  );
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
        value: (d) => t(statusLabelKey(d.status, d.billing.status)),
        render: (d) => (
          <Box sx={{ display: 'grid', gap: 0.5, minWidth: 140 }}>
            <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              <StatusChip status={d.status} subscriptionStatus={d.billing.status} />
              {/* Once billing stops (a deletion) the subscription is no longer "Active": the line below says when the server goes. */}
              {/* A server waiting for its payment says so already: no second "Payment pending" beside it. */}
              {!d.flags.free && subscriptionState(deploymentBillingFacts(d)).kind === 'status' && !isAwaitingPayment(d.status, d.billing.status) && (
                <Chip size="small" variant="outlined" color={SUBSCRIPTION_COLOR[d.billing.status]} label={t(`deploymentsPage.subscription.${d.billing.status}`)} data-testid="subscription-status" />
              )}
            </Box>
            {/* In the first columns, so a phone shows it without scrolling the table sideways. */}
            {d.terminationScheduledAt && d.status !== 'deleted' && (
              <Typography variant="body2" color="warning.dark" data-testid="deleting-on">
                {t('servers.deletingOn', { date: shortDate.format(new Date(d.terminationScheduledAt)) })}
              </Typography>
            )}
            <ServerProgress task={d.latestTask} />
          </Box>
        ),
      },
      { id: 'plan', header: t('deployment.columns.plan'), value: (d) => d.plan.name, sortable: false },
      { id: 'mau', header: t('deployment.columns.mau'), value: (d) => d.mau.used, sortable: false, render: (d) => <MauBar used={d.mau.used} limit={d.mau.limit} compact /> },
      { id: 'nextBill', header: t('deployment.columns.nextBill'), value: (d) => d.billing.nextBilledAt ?? '', sortable: false, render: (d) => (
          <Box sx={{ display: 'grid', gap: 0.5, justifyItems: 'start' }}>
            {nextBillText(d, t)}
            <CompletePayment deployment={d} />
          </Box>
        ) },
      { id: 'region', header: t('deployment.columns.region'), value: (d) => d.region?.name ?? '', sortable: false, dynamic: true, defaultSelected: false },
      { id: 'createdAt', header: t('deployment.columns.createdAt'), value: (d) => new Date(d.createdAt), render: (d) => shortDate.format(new Date(d.createdAt)), dynamic: true, defaultSelected: true },
    ],
    [t, scope],
  );
  if (!companyId) return null;
  return (
    <DataTable
      id="deployments"
      label={t('deployment.listLabel')}
      columns={columns}
      source={source}
      getRowId={(d) => d._id}
      exportName="deployments"
      emptyTitle={page.data ? t('servers.empty') : t('titles.loading')}
      emptyMessage={page.data ? t('servers.emptyMessage') : ''}
      canCreate={false}
      defaultSort={{ field: 'createdAt', order: 'DESC' }}
      rowTestId="deployment-row"
    />
  );
}
