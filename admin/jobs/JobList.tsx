import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminJobRow } from '../../src/domain/schemas/adminDeployments';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList } from '../AdminList';

type JobRow = AdminJobRow & { id: string };

/** Admin area: the worker's queues and schedules with their jobs by state (read-only). */
export function JobList() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<JobRow>[]>(() => {
    const f = (field: string) => t(`resources.jobs.fields.${field}`);
    const count = (id: 'queued' | 'active' | 'deferred' | 'failed' | 'total', sortable = true): DataTableColumn<JobRow> => ({ id, header: f(id), align: 'right', sortable, value: (j) => j[id] });
    return [
      { id: 'name', header: f('name'), value: (j) => j.name },
      { id: 'cron', header: f('cron'), sortable: false, value: (j) => (j.cron ? `${j.cron} (${j.timezone ?? 'UTC'})` : '') },
      { id: 'policy', header: f('policy'), sortable: false, dynamic: true, value: (j) => j.policy ?? '' },
      count('queued'),
      count('active'),
      count('deferred', false),
      count('failed'),
      count('total'),
    ];
  }, [t]);
  return <AdminList name="jobs" columns={columns} defaultSort={{ field: 'name', order: 'ASC' }} />;
}
