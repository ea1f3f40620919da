import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyView } from '../../src/ui/EmptyView';
import { useAnalytics } from './context';

/** What an app's screen shows while the dashboard has no application. */
export function NoApp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, writable, basePath } = useAnalytics();
  const canCreate = writable && session.member.globalAdmin;
  return (
    <EmptyView
      title={t('analytics.noApps')}
      message={canCreate ? t('analytics.noAppsBody') : t('analytics.noAppsUser')}
      createLabel={t('analytics.apps.create')}
      canCreate={canCreate}
      onCreate={() => navigate(`${basePath}/apps/create`)}
    />
  );
}
