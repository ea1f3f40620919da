import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import { useGetOne } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { AdminTaskDetail } from '../../src/domain/admin/deployments';
import { assigneeLabel } from '../deploymentTasks/assignee';
import { formatDateTime } from '../formatDate';
import { useServerLabels } from '../serverLabels';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';
import { TaskActions } from './TaskActions';
import { codeAsWords } from '../../src/ui/format';

type TaskRecord = AdminTaskDetail & { id: string };

/** A task's page (`/admin/taskDetail/{id}`): its state, step log and last error, and the support actions. */
export function TaskDetail() {
  const { t } = useTranslation();
  const labels = useServerLabels();
  const { id = '' } = useParams();
  // An open task is followed while the worker runs it.
  const { data: task, refetch, isPending } = useGetOne<TaskRecord>('admin/deploymentTasks', { id }, { refetchInterval: (q) => (q.state.data && ['queued', 'running'].includes(q.state.data.status) ? 2000 : false) });
  if (isPending || !task?.steps) return <LinearProgress aria-label={t('admin.loading')} />;
  const f = (key: string) => t(`resources.deploymentTasks.fields.${key}`);
  const chip = (label: string, value: string | number) => <Chip size="small" variant="outlined" label={`${label}: ${value}`} />;
  return (
    <>
      <RecordHeader name="deploymentTasks" title={t('resources.taskDetail.title', { type: labels.taskType(task.type), server: task.deploymentName })} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Chip size="small" color={task.status === 'completed' ? 'success' : task.status === 'failed' ? 'error' : 'default'} label={labels.taskStatus(task.status)} data-testid="task-status" data-status={task.status} />
        <Chip size="small" variant="outlined" clickable component={RouterLink} to={`/admin/deployments/${task.deploymentId}`} label={`${f('deploymentName')}: ${task.deploymentName}`} />
        {chip(t('resources.deployments.fields.companyName'), task.companyName)}
        {chip(f('attempts'), task.attempts)}
        {chip(f('assigneeId'), assigneeLabel(task) || '—')}
        {task.claimedBy && chip(t('resources.taskDetail.claimedBy'), task.claimedBy)}
        {chip(t('resources.taskDetail.progress'), `${task.progress} %`)}
        {chip(f('createdAt'), formatDateTime(task.createdAt))}
        {task.requestedBy && chip(t('resources.taskDetail.requestedBy'), task.requestedBy)}
      </Box>
      {task.lastError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('resources.taskDetail.lastError', { error: task.lastError })}
        </Alert>
      )}
      {task.retriedBy && (
        <Alert severity="info" sx={{ mb: 2 }}>
          <Link component={RouterLink} to={`/admin/taskDetail/${task.retriedBy}`}>
            {t('resources.taskDetail.retriedBy')}
          </Link>
        </Alert>
      )}
      <TaskActions task={task} onDone={() => void refetch()} />
      <SectionTable
        title={t('resources.taskDetail.steps')}
        rows={task.steps}
        getRowId={(s) => s.name}
        empty={t('resources.taskDetail.noSteps')}
        columns={[
          { header: t('resources.taskDetail.step'), cell: (s) => t(`resources.taskDetail.stepNames.${s.name}`, { defaultValue: codeAsWords(s.name) }) },
          { header: t('resources.taskDetail.at'), cell: (s) => formatDateTime(s.at) },
          { header: t('resources.taskDetail.detail'), cell: (s) => <Box component="code" sx={{ wordBreak: 'break-all', fontSize: '0.8125rem' }}>{s.detail && s.detail !== '{}' ? s.detail : ''}</Box> },
        ]}
      />
    </>
  );
}
