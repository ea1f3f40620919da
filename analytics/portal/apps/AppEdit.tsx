import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import type { AppUpdate } from '../../domain/schemas';
import { showToast } from '../../../src/ui/toast/toastStore';
import { canAdminApp, useAnalytics } from '../context';
import { NoApp } from '../NoApp';
import { ScreenHeading } from '../ScreenHeading';
import { AppDangerZone } from './AppDangerZone';
import { AppFacts } from './AppFacts';
import { AppForm } from './AppForm';
import { AppIconField } from './AppIconField';
import { AppSdkSettings } from './AppSdkSettings';

/** One application: its key and facts, the form, the icon, and (for its admins) clear and delete. */
export function AppEdit() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { api, apps, session, writable, reloadApps } = useAnalytics();
  // The landing's list of apps (read again after every change here) holds the one shown.
  const app = apps.find((a) => a._id === id);
  const update = useDashboardMutation(api, (a, body: AppUpdate) => a.updateApp(id, body));
  if (!app) return <NoApp />;
  const canAdmin = writable && canAdminApp(session, app._id);
  return (
    <>
      <ScreenHeading titleKey="analytics.apps.editTitle" />
      <Typography variant="h2" component="p" sx={{ mt: -2, mb: 3, overflowWrap: 'anywhere' }}>
        {app.name}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, alignItems: 'start' }}>
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <AppIconField app={app} disabled={!canAdmin} onChange={() => void reloadApps()} />
          <AppForm
            key={app.updatedAt}
            initial={app}
            disabled={!canAdmin}
            submitLabel={t('analytics.save')}
            onSubmit={async (values) => {
              await update.mutateAsync(values);
              await reloadApps();
              showToast({ text: t('analytics.saved'), variant: 'successful' });
            }}
          />
        </Paper>
        <Box sx={{ display: 'grid', gap: 3 }}>
          <AppFacts app={app} />
          <AppSdkSettings appId={app._id} canAdmin={canAdmin} />
          {writable && <AppDangerZone app={app} canAdmin={canAdmin} />}
        </Box>
      </Box>
    </>
  );
}
