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
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
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
  // The device id last asked for: the app user is read for it until the next search or a purge.
  const [searched, setSearched] = useState<string | null>(null);
  const [job, setJob] = useState<JobDto | null>(null);
  const appId = app?._id ?? '';
  const found = useDashboardQuery(api, ['appUser', appId, searched], searched ? (a) => a.findAppUser(appId, searched) : null);
  const user: AppUserDto | null = (searched && !found.isPlaceholderData && found.data) || null;
  const exporter = useDashboardMutation(api, (a, id: string) => a.exportAppUser(appId, id));
  const purger = useDashboardMutation(api, (a, id: string) => a.purgeAppUser(appId, id));
  const { run, failure } = useFormSubmit();
  if (!app) return <NoApp />;
  const canAct = writable && canAdminApp(session, app._id);

  const find = () => {
    setJob(null);
    setSearched(deviceId.trim() || null);
  };
  const exportData = async () => {
    if (user) await run(async () => setJob(await exporter.mutateAsync(user.deviceId)));
  };
  const purge = async () => {
    if (!user) return;
    if (!(await confirm({ type: 'danger', title: t('analytics.appUsers.purgeTitle'), message: t('analytics.appUsers.purgeBody', { deviceId: user.deviceId }), labels: { confirm: t('analytics.appUsers.purge') } }))) return;
    if (!(await run(() => purger.mutateAsync(user.deviceId)))) return;
    setSearched(null);
    setJob(null);
    showToast({ text: t('analytics.appUsers.purged'), variant: 'successful' });
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
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1.5} onSubmit={(e) => (e.preventDefault(), find())}>
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
      {searched && <QueryFailure error={found.error} sx={{ mb: 2 }} />}
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
