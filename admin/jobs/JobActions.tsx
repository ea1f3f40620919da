import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useNotify, useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { AdminJobAction, AdminJobRow } from '../../src/domain/admin/jobs';
import { useRecordAction } from '../useRecordAction';

/** A scheduled job's actions in its row: run now, and pause or resume its schedule. */
export function JobActions({ job }: { job: AdminJobRow }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const refresh = useRefresh();
  const action = useRecordAction<AdminJobRow>('jobs', (_next, name) => {
    notify(t(`resources.jobs.done.${name}`, { name: job.name }), { type: 'success' });
    refresh();
  });
  if (job.state === 'onDemand') return null;
  const button = (name: AdminJobAction, variant: 'outlined' | 'text') => (
    <Button size="small" variant={variant} disabled={action.isPending} aria-label={t(`resources.jobs.actions.${name}Named`, { name: job.name })} onClick={() => action.mutate({ id: job._id, action: name })}>
      {t(`resources.jobs.actions.${name}`)}
    </Button>
  );
  return (
    <Box sx={{ display: 'flex', gap: 1, whiteSpace: 'nowrap' }}>
      {button('run', 'outlined')}
      {job.state === 'paused' ? button('resume', 'outlined') : button('pause', 'text')}
    </Box>
  );
}
