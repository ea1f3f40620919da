import CheckCircle from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import type { JobDto } from '../../domain/schemas';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { downloadLink } from '../../../src/ui/table/exportFile';
import { useAnalytics } from '../context';
import { exportFileName } from './exportFileName';

const POLL_MS = 2000;
const isWaiting = (job: JobDto) => job.status === 'scheduled' || job.status === 'running';

/** The downloading view: waits for the export job, then offers its file (JSON, named with the date). */
export function DownloadingView({ job: started, deviceId }: { job: JobDto; deviceId: string }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const current = (jobs: readonly JobDto[] | undefined) => jobs?.find((j) => j._id === started._id) ?? started;
  // The jobs list is read every POLL_MS until this job has ended.
  const jobs = useDashboardQuery(api, ['jobs', started._id], (a) => a.listJobs(), { refetchInterval: (q) => (isWaiting(current(q.state.data)) ? POLL_MS : false) });
  const job = current(jobs.data);
  const waiting = isWaiting(job);
  const fetchFile = useDashboardMutation(api, (a, id: string) => a.downloadExport(id));
  const { run, failure } = useFormSubmit();

  const download = () =>
    run(async () => {
      const blob = await fetchFile.mutateAsync(job._id);
      const url = URL.createObjectURL(blob);
      downloadLink(url, exportFileName(deviceId, job.createdAt));
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    });

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-live="polite">
      <QueryFailure error={jobs.error} />
      {failure || job.status === 'failed' ? (
        <Alert severity="error" role="alert">
          {failure ?? t('analytics.appUsers.exportFailed')}
        </Alert>
      ) : waiting ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{t('analytics.appUsers.downloading')}</Typography>
        </Stack>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <CheckCircle color="success" />
          <Typography sx={{ flex: 1 }}>{t('analytics.appUsers.downloadReady')}</Typography>
          <Button variant="contained" onClick={() => void download()}>
            {t('analytics.appUsers.download')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}
