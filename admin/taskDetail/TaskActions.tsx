import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useGetIdentity, useNotify, useUpdate } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AdminTaskDetail } from '../../src/domain/admin/deployments';
import { useRecordAction } from '../useRecordAction';

/** A task's support actions: retry a failed one, cancel a queued one, assign it to oneself or nobody. */
export function TaskActions({ task, onDone }: { task: AdminTaskDetail & { id: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const { identity } = useGetIdentity();
  const action = useRecordAction<AdminTaskDetail>('deploymentTasks', (next, name) => {
    notify(t(`resources.taskDetail.done.${name}`), { type: 'success' });
    // A retry is a new task: its page follows the worker's progress.
    if (name === 'retry') navigate(`/admin/taskDetail/${next._id}`);
    else onDone();
  });
  const [update, { isPending: assigning }] = useUpdate();
  const assign = (assigneeId: string | null) =>
    update(
      'admin/deploymentTasks',
      { id: task._id, data: { assigneeId }, previousData: task },
      { mutationMode: 'pessimistic', onSuccess: () => (notify(t('admin.saved'), { type: 'success' }), onDone()), onError: (e) => notify((e as Error).message, { type: 'error' }) },
    );
  const me = identity ? String(identity.id) : null;
  const busy = action.isPending || assigning;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
      {task.status === 'failed' && !task.retriedBy && (
        <Button variant="contained" disabled={busy} onClick={() => action.mutate({ id: task._id, action: 'retry' })}>
          {t('resources.taskDetail.retry')}
        </Button>
      )}
      {task.status === 'queued' && (
        <Button variant="outlined" color="error" disabled={busy} onClick={() => action.mutate({ id: task._id, action: 'cancel' })}>
          {t('resources.taskDetail.cancel')}
        </Button>
      )}
      {me && task.assigneeId !== me && (
        <Button variant="outlined" disabled={busy} onClick={() => assign(me)}>
          {t('resources.taskDetail.assignToMe')}
        </Button>
      )}
      {task.assigneeId && (
        <Button variant="text" disabled={busy} onClick={() => assign(null)}>
          {t('resources.taskDetail.unassign')}
        </Button>
      )}
    </Box>
  );
}
