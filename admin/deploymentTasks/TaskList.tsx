import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TASK_STATUSES, TASK_TYPES } from '../../src/domain/deployments/tasks';
import type { AdminTaskRow } from '../../src/domain/admin/deployments';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { assigneeLabel } from './assignee';
import { useServerLabels } from '../serverLabels';

type TaskRow = AdminTaskRow & { id: string };

/** Admin area: the task queue of every server (status, type, server, attempts, assignee, error). */
export function TaskList() {
  const { t } = useTranslation();
  const labels = useServerLabels();
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const filter = useMemo(() => ({ status: status || undefined, type: type || undefined }), [status, type]);
  const columns = useMemo<DataTableColumn<TaskRow>[]>(() => {
    const f = (field: string) => t(`resources.deploymentTasks.fields.${field}`);
    return [
      { id: 'createdAt', header: f('createdAt'), value: (r) => formatDateTime(r.createdAt), render: (r) => <RecordLink name="taskDetail" id={r._id}>{formatDateTime(r.createdAt)}</RecordLink> },
      { id: 'status', header: f('status'), value: (r) => labels.taskStatus(r.status) },
      { id: 'type', header: f('type'), value: (r) => labels.taskType(r.type) },
      { id: 'deploymentName', header: f('deploymentName'), value: (r) => r.deploymentName, render: (r) => <RecordLink name="deployments" id={r.deploymentId}>{r.deploymentName}</RecordLink> },
      { id: 'attempts', header: f('attempts'), align: 'right', value: (r) => r.attempts },
      { id: 'assigneeEmail', header: f('assigneeId'), value: (r) => assigneeLabel(r) },
      { id: 'lastError', header: f('lastError'), sortable: false, value: (r) => r.lastError ?? '' },
      { id: '_id', header: f('_id'), dynamic: true, value: (r) => r._id },
    ];
  }, [t, labels]);
  const native = { select: true, size: 'small' as const, slotProps: { select: { native: true }, inputLabel: { shrink: true } }, sx: { minWidth: 180 } };
  const filters = (
    <Box role="group" aria-label={t('admin.filters')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}>
      <TextField {...native} label={t('resources.deploymentTasks.fields.status')} value={status} onChange={(e) => setStatus(e.target.value)}>
        <option value="">{t('admin.any')}</option>
        {TASK_STATUSES.map((s) => (
          <option key={s} value={s}>
            {labels.taskStatus(s)}
          </option>
        ))}
      </TextField>
      <TextField {...native} label={t('resources.deploymentTasks.fields.type')} value={type} onChange={(e) => setType(e.target.value)}>
        <option value="">{t('admin.any')}</option>
        {TASK_TYPES.map((s) => (
          <option key={s} value={s}>
            {labels.taskType(s)}
          </option>
        ))}
      </TextField>
    </Box>
  );
  return <AdminList name="deploymentTasks" columns={columns} filter={filter} filters={filters} defaultSort={{ field: 'createdAt', order: 'DESC' }} />;
}
