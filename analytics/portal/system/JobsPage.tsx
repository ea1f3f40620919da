import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { JobDto } from '../../domain/schemas';
import { DataTable } from '../../../src/ui/table/DataTable';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { useDashboardQuery } from '../../dataProvider/dashboard';

const COLOR = { scheduled: 'default', running: 'info', completed: 'success', failed: 'error' } as const;

/** Jobs: the dashboard's background work (top events, clearing, exports, purges) with its state. */
export function JobsPage() {
  const { t } = useTranslation();
  const { api, apps } = useAnalytics();
  const jobs = useDashboardQuery(api, ['listJobs'], (a) => a.listJobs());
  const rows = useMemo(() => jobs.data ?? [], [jobs.data]);
  const appName = (id: string | null) => (id ? (apps.find((a) => a._id === id)?.name ?? id) : '');
  return (
    <>
      <ScreenHeading titleKey="analytics.jobs.title" />
      <QueryFailure error={jobs.error} />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        {jobs.data && (
          <DataTable<JobDto>
            id="analytics-jobs"
            label={t('analytics.jobs.title')}
            columns={[
              { id: 'kind', header: t('analytics.jobs.kind'), value: (j) => t(`analytics.jobs.kinds.${j.kind}`) },
              { id: 'app', header: t('analytics.jobs.app'), value: (j) => appName(j.appId) },
              { id: 'status', header: t('analytics.jobs.statusHeader'), value: (j) => t(`analytics.jobs.statuses.${j.status}`), render: (j) => <Chip size="small" color={COLOR[j.status]} label={t(`analytics.jobs.statuses.${j.status}`)} /> },
              { id: 'createdAt', header: t('analytics.jobs.created'), value: (j) => new Date(j.createdAt).toLocaleString('en-US') },
              { id: 'finishedAt', header: t('analytics.jobs.finished'), value: (j) => (j.finishedAt ? new Date(j.finishedAt).toLocaleString('en-US') : '') },
            ]}
            source={{ kind: 'local', rows }}
            getRowId={(j) => j._id}
            exportName="jobs"
            emptyTitle={t('analytics.jobs.empty')}
            canCreate={false}
            defaultSort={{ field: 'createdAt', order: 'DESC' }}
          />
        )}
      </Paper>
    </>
  );
}
