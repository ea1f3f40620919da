import CheckCircle from '@mui/icons-material/CheckCircle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobDto } from '../../domain/schemas';
import { failureMessage } from '../../../src/ui/form/messages';
import { downloadLink } from '../../../src/ui/table/exportFile';
import { useAnalytics } from '../context';
import { exportFileName } from './exportFileName';

const POLL_MS = 2000;

/** The downloading view: waits for the export job, then offers its file (JSON, named with the date). */
export function DownloadingView({ job: started, deviceId }: { job: JobDto; deviceId: string }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [job, setJob] = useState(started);
  const [failure, setFailure] = useState<string | null>(null);
  const waiting = job.status === 'scheduled' || job.status === 'running';

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      api.listJobs().then((jobs) => setJob(jobs.find((j) => j._id === job._id) ?? job), (error: unknown) => setFailure(failureMessage(error, t)));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [api, job, waiting, t]);

  const download = async () => {
    try {
      const blob = await api.downloadExport(job._id);
      const url = URL.createObjectURL(blob);
      downloadLink(url, exportFileName(deviceId, job.createdAt));
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      setFailure(failureMessage(error, t));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-live="polite">
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
