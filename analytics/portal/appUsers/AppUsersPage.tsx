import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppUserDto, JobDto } from '../../domain/schemas';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { failureMessage } from '../../../src/ui/form/messages';
import { showToast } from '../../../src/ui/toast/toastStore';
import { canAdminApp, useAnalytics } from '../context';
import { NoApp } from '../NoApp';
import { ScreenHeading } from '../ScreenHeading';
import { DownloadingView } from './DownloadingView';

const date = (iso: string) => new Date(iso).toLocaleString('en-US');

/** App users: find one by device id, export their data (a job and the downloading view) or purge it after a confirmation. */
export function AppUsersPage() {
  const { t } = useTranslation();
  const { api, app, session, writable } = useAnalytics();
  const [deviceId, setDeviceId] = useState('');
  const [user, setUser] = useState<AppUserDto | null>(null);
  const [job, setJob] = useState<JobDto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (!app) return <NoApp />;
  const canAct = writable && canAdminApp(session, app._id);

  const find = async () => {
    setFailure(null);
    setUser(null);
    setJob(null);
    if (!deviceId.trim()) return;
    try {
      setUser(await api.findAppUser(app._id, deviceId.trim()));
    } catch (error) {
      setFailure(failureMessage(error, t));
    }
  };
  const exportData = async () => {
    if (!user) return;
    try {
      setJob(await api.exportAppUser(app._id, user.deviceId));
    } catch (error) {
      setFailure(failureMessage(error, t));
    }
  };
  const purge = async () => {
    if (!user) return;
    if (!(await confirm({ type: 'danger', title: t('analytics.appUsers.purgeTitle'), message: t('analytics.appUsers.purgeBody', { deviceId: user.deviceId }), labels: { confirm: t('analytics.appUsers.purge') } }))) return;
    try {
      await api.purgeAppUser(app._id, user.deviceId);
      setUser(null);
      setJob(null);
      showToast({ text: t('analytics.appUsers.purged'), variant: 'successful' });
    } catch (error) {
      setFailure(failureMessage(error, t));
    }
  };

  const facts: [string, string][] = user
    ? [
        [t('analytics.appUsers.deviceId'), user.deviceId],
        [t('analytics.appUsers.firstSeen'), date(user.firstSeenAt)],
        [t('analytics.appUsers.lastSeen'), date(user.lastSeenAt)],
        [t('analytics.appUsers.sessions'), String(user.sessions)],
        [t('analytics.appUsers.duration'), String(user.totalDuration)],
        [t('analytics.appUsers.rawEvents'), String(user.rawEvents)],
        ...Object.entries(user.metrics).map(([k, v]): [string, string] => [k, v]),
        ...Object.entries(user.details).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ]
    : [];

  return (
    <>
      <ScreenHeading titleKey="analytics.appUsers.title" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1.5} onSubmit={(e) => (e.preventDefault(), void find())}>
          <TextField label={t('analytics.appUsers.deviceId')} value={deviceId} onChange={(e) => setDeviceId(e.target.value)} sx={{ flex: 1 }} slotProps={{ htmlInput: { maxLength: 200 } }} />
          <Button type="submit" variant="contained">
            {t('analytics.appUsers.find')}
          </Button>
        </Stack>
      </Paper>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      {user && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
          <Box component="dl" sx={{ m: 0, mb: 2, display: 'grid', gridTemplateColumns: 'minmax(120px, auto) 1fr', columnGap: 2, rowGap: 1 }}>
            {facts.map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {canAct && (
            <Stack direction="row" spacing={1}>
              <Button variant="outlined" onClick={() => void exportData()}>
                {t('analytics.appUsers.export')}
              </Button>
              <Button variant="outlined" color="error" onClick={() => void purge()}>
                {t('analytics.appUsers.purge')}
              </Button>
            </Stack>
          )}
        </Paper>
      )}
      {job && user && <DownloadingView job={job} deviceId={user.deviceId} />}
    </>
  );
}
