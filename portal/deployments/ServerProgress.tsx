import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { LatestTask } from '../../src/domain/deployments/tasks';
import { isTaskOpen } from '../../src/ui/servers/status';

/** The task a server is busy with, with its progress while it runs. */
export function ServerProgress({ task }: { task: LatestTask | null }) {
  const { t } = useTranslation();
  if (!task || !isTaskOpen(task)) return null;
  const name = t(`servers.task.${task.type}`);
  const running = task.status === 'running';
  return (
    <Box role="status" data-testid="task-progress" sx={{ display: 'grid', gap: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {running ? t('servers.working', { task: name, progress: Math.round(task.progress) }) : t('servers.queued', { task: name })}
      </Typography>
      <LinearProgress variant={running ? 'determinate' : 'indeterminate'} value={running ? task.progress : undefined} aria-label={name} sx={{ height: 6, borderRadius: 3 }} />
    </Box>
  );
}
