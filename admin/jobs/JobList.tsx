import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminJobRow } from '../../src/domain/admin/jobs';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { JobActions } from './JobActions';

type JobRow = AdminJobRow & { id: string };

const STATE_COLORS = { scheduled: 'success', paused: 'warning', onDemand: 'default' } as const;

/** Admin area: the worker's queues and schedules (next and last run, jobs by state); run now, pause, resume. */
export function JobList() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<JobRow>[]>(() => {
    const f = (field: string) => t(`resources.jobs.fields.${field}`);
    const count = (id: 'queued' | 'active' | 'deferred' | 'total', sortable = true): DataTableColumn<JobRow> => ({ id, header: f(id), align: 'right', sortable, dynamic: true, value: (j) => j[id] });
    const lastRun = (j: JobRow) => (j.lastRunAt ? `${formatDateTime(j.lastRunAt)} (${t(`resources.jobs.runStates.${j.lastRunState ?? 'completed'}`)})` : '');
    return [
      { id: 'name', header: f('name'), value: (j) => j.name },
      {
        id: 'state',
        header: f('state'),
        value: (j) => t(`resources.jobs.states.${j.state}`),
        render: (j) => <Chip size="small" color={STATE_COLORS[j.state]} variant={j.state === 'paused' ? 'outlined' : 'filled'} label={t(`resources.jobs.states.${j.state}`)} />,
      },
      { id: 'cron', header: f('cron'), sortable: false, value: (j) => (j.cron ? `${j.cron} (${j.timezone ?? 'UTC'})` : '') },
      { id: 'nextRunAt', header: f('nextRunAt'), value: (j) => formatDateTime(j.nextRunAt) },
      {
        id: 'lastRunAt',
        header: f('lastRunAt'),
        value: lastRun,
        render: (j) =>
          j.lastRunAt && (
            <>
              {formatDateTime(j.lastRunAt)}
              <Typography variant="caption" component="div" color={j.lastRunState === 'failed' ? 'error' : 'text.secondary'}>
                {t(`resources.jobs.runStates.${j.lastRunState ?? 'completed'}`)}
              </Typography>
            </>
          ),
      },
      { id: 'failed', header: f('failed'), align: 'right', value: (j) => j.failed },
      { id: 'policy', header: f('policy'), sortable: false, dynamic: true, value: (j) => j.policy ?? '' },
      count('queued'),
      count('active'),
      count('deferred', false),
      count('total'),
      { id: 'actions', header: f('actions'), sortable: false, exportable: false, value: () => '', render: (j) => <JobActions job={j} /> },
    ];
  }, [t]);
  return <AdminList name="jobs" columns={columns} defaultSort={{ field: 'name', order: 'ASC' }} />;
}
