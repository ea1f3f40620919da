import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CLEAR_PERIODS, type ClearPeriod } from '../../domain/constants';
import type { AppDto } from '../../domain/schemas';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';

/** Clear data (1 month … all) and delete: the app's admins only, never on a locked app, each after a confirmation. */
export function AppDangerZone({ app, canAdmin }: { app: AppDto; canAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { api, basePath, reloadApps } = useAnalytics();
  const [period, setPeriod] = useState<ClearPeriod>('1month');
  const blocked = !canAdmin || app.locked;
  const clearData = useDashboardMutation(api, (a, clearPeriod: ClearPeriod) => a.clearApp(app._id, clearPeriod));
  const deleteApp = useDashboardMutation<undefined, null>(api, (a) => a.deleteApp(app._id));
  const { run } = useFormSubmit({ report: 'toast' });

  const clear = async () => {
    const label = t(`analytics.apps.clearPeriods.${period}`);
    if (!(await confirm({ type: 'danger', title: t('analytics.apps.clearTitle'), message: t('analytics.apps.clearBody', { period: label, name: app.name }), labels: { confirm: t('analytics.apps.clear') } }))) return;
    if (await run(() => clearData.mutateAsync(period))) showToast({ text: t('analytics.apps.cleared'), variant: 'successful' });
  };
  const remove = async () => {
    if (!(await confirm({ type: 'danger', title: t('analytics.apps.deleteTitle'), message: t('analytics.apps.deleteBody', { name: app.name }), labels: { confirm: t('analytics.delete') } }))) return;
    if (!(await run(() => deleteApp.mutateAsync(undefined)))) return;
    await reloadApps();
    showToast({ text: t('analytics.apps.deleted'), variant: 'successful' });
    navigate(`${basePath}/apps`);
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderColor: 'error.light' }}>
      <Typography variant="h2" component="h2" sx={{ fontSize: '1.125rem', mb: 2 }}>
        {t('analytics.apps.danger')}
      </Typography>
      {!canAdmin && <Alert severity="info" sx={{ mb: 2 }}>{t('analytics.apps.adminOnly')}</Alert>}
      {canAdmin && app.locked && <Alert severity="info" sx={{ mb: 2 }}>{t('analytics.apps.lockedHint')}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField select size="small" label={t('analytics.apps.clear')} value={period} onChange={(e) => setPeriod(e.target.value as ClearPeriod)} disabled={blocked} sx={{ minWidth: 200 }}>
          {CLEAR_PERIODS.map((p) => (
            <MenuItem key={p} value={p}>
              {t(`analytics.apps.clearPeriods.${p}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" color="error" disabled={blocked} onClick={() => void clear()}>
          {t('analytics.apps.clear')}
        </Button>
      </Stack>
      <Button variant="contained" color="error" disabled={blocked} onClick={() => void remove()}>
        {t('analytics.apps.deleteApp')}
      </Button>
    </Paper>
  );
}
