import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useDashboardMutation, type AppCreate as AppBody } from '../../dataProvider/dashboard';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { AppForm } from './AppForm';

/** Add new app (global admins): on success the new app is selected and its page shows the app key. */
export function AppCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { api, basePath, reloadApps, selectApp } = useAnalytics();
  const create = useDashboardMutation(api, (a, body: AppBody) => a.createApp(body));
  return (
    <>
      <ScreenHeading titleKey="analytics.apps.create" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <AppForm
          submitLabel={t('analytics.create')}
          onSubmit={async (values) => {
            const app = await create.mutateAsync(values);
            await reloadApps();
            selectApp(app._id);
            showToast({ text: t('analytics.apps.createdToast'), variant: 'successful' });
            navigate(`${basePath}/apps/${app._id}`);
          }}
        />
      </Paper>
    </>
  );
}
