import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEPLOYMENT_STATUSES, type SubscriptionStatus } from '../../src/domain/orders/schemas';
import type { AdminDeploymentRow } from '../../src/domain/admin/deployments';
import { MAU_TIER_FILTERS } from '../../src/domain/deployments/listQuery';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { useServerLabels } from '../serverLabels';
import { planCodeLabel } from '../../src/ui/format';
import { Clipped } from '../Clipped';

type DeploymentRow = AdminDeploymentRow & { id: string };

/** Admin area: every server of every company, searched, sorted and filtered by status on the server. */
export function DeploymentList() {
  const { t } = useTranslation();
  const labels = useServerLabels();
  const [status, setStatus] = useState('');
  const [mau, setMau] = useState('');
  const filter = useMemo(() => ({ ...(status ? { status } : {}), ...(mau ? { mau } : {}) }), [status, mau]);
  const columns = useMemo<DataTableColumn<DeploymentRow>[]>(() => {
    const f = (field: string) => t(`resources.deployments.fields.${field}`);
    return [
      // Names are cut with an ellipsis (whole in the tooltip): the table fits 1440 px whatever customers call things.
      {
        id: 'name',
        header: f('name'),
        value: (d) => d.name,
        render: (d) => (
          <RecordLink name="deployments" id={d._id}>
            <Clipped text={d.name} width={170} />
          </RecordLink>
        ),
      },
      {
        id: 'companyName',
        header: f('companyName'),
        value: (d) => d.companyName,
        render: (d) => (
          <RecordLink name="companies" id={d.companyId}>
            <Clipped text={d.companyName} width={160} />
          </RecordLink>
        ),
      },
      // The subscription column says "Deleting on …" for a server being deleted.
      { id: 'status', header: f('status'), value: (d) => labels.serverStatus(d.status, d.subscriptionStatus as SubscriptionStatus | null) },
      // The plan as the customer's screens name it ("Growth"); its tier and cloud as a column to add.
      { id: 'planName', header: f('planName'), value: (d) => d.planName },
      { id: 'planCode', header: f('planCode'), dynamic: true, value: (d) => planCodeLabel(d.planCode) },
      { id: 'regionName', header: f('regionName'), value: (d) => d.regionName ?? '' },
      { id: 'subscriptionStatus', header: f('subscriptionStatus'), value: (d) => labels.subscription(d), render: (d) => <Clipped text={labels.subscription(d)} width={180} /> },
      // The day in the table, the time in its tooltip (and in the export).
      { id: 'createdAt', header: f('createdAt'), value: (d) => formatDateTime(d.createdAt), render: (d) => <span title={formatDateTime(d.createdAt)}>{new Date(d.createdAt).toLocaleDateString('en-US')}</span> },
      { id: '_id', header: f('_id'), dynamic: true, value: (d) => d._id },
    ];
  }, [t, labels]);
  const filters = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      <TextField
        select
        size="small"
        label={t('resources.deployments.fields.status')}
        value={status}
        onChange={(e) => setStatus(e.target.value)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 200, mb: 2 }}
      >
        <option value="">{t('admin.any')}</option>
        {DEPLOYMENT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {labels.deploymentStatus(s)}
          </option>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('resources.deployments.fields.mau')}
        value={mau}
        onChange={(e) => setMau(e.target.value)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 200, mb: 2 }}
        data-testid="mau-filter"
      >
        <option value="">{t('admin.any')}</option>
        {MAU_TIER_FILTERS.map((m) => (
          <option key={m} value={m}>
            {t(`resources.deployments.mauFilter.${m}`)}
          </option>
        ))}
      </TextField>
    </Box>
  );
  return <AdminList name="deployments" columns={columns} filter={filter} filters={filters} defaultSort={{ field: 'createdAt', order: 'DESC' }} />;
}
