import '../i18n/register';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { clientConfig } from '../../src/clientConfig';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useI18nextProvider } from 'ra-i18n-i18next';
import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Navigate, Route } from 'react-router';
import { useDashboardSession, type DashboardApi } from '../dataProvider/dashboard';
import type { AppDto } from '../domain/schemas';
import { fullI18n } from '../../src/fullI18n';
import { appTheme } from '../../src/theme';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { ToastNotification } from '../../src/ui/toast/ToastNotification';
import { AnalyticsLayout } from './AnalyticsLayout';
import { AppCreate } from './apps/AppCreate';
import { AppEdit } from './apps/AppEdit';
import { AppList } from './apps/AppList';
import { AppUsersPage } from './appUsers/AppUsersPage';
import { AnalyticsContext, type AnalyticsState } from './context';
import { AllEventsPage } from './events/AllEventsPage';
import { EventGroupsPage } from './events/EventGroupsPage';
import { ViewsPage } from './views/ViewsPage';
import { EventsOverviewPage } from './events/EventsOverviewPage';
import { TopEventsPage } from './events/TopEventsPage';
import { MemberCreate } from './members/MemberCreate';
import { MemberEdit } from './members/MemberEdit';
import { MemberList } from './members/MemberList';
import { ReportsPage } from './reports/ReportsPage';
import { UserSettingsPage } from './settings/UserSettingsPage';
import { ApiConfigurationsPage } from './system/ApiConfigurationsPage';
import { JobsPage } from './system/JobsPage';
import { VersionHistoryPage } from './system/VersionHistoryPage';
import { TokenCreate } from './tokens/TokenCreate';
import { TokenList } from './tokens/TokenList';
import { queryClient } from '../../src/queryClient';

const selectedKey = (basePath: string) => `beacon.analytics.app:${basePath}`;

/**
 * One analytics dashboard, mounted at `basePath`: react-admin's layout and routes over the given
 * DashboardApi, every screen reading through its query hooks (the lists paged by the server).
 * The live dashboard passes the tenant API; the preview passes generated sample data.
 */
export function AnalyticsArea(props: { api: DashboardApi; basePath: string; embedded?: boolean }) {
  // The landing reads through the app's query cache, which <Admin> below shares.
  return (
    <QueryClientProvider client={queryClient}>
      <Dashboard {...props} />
    </QueryClientProvider>
  );
}

function Dashboard({ api, basePath, embedded = false }: { api: DashboardApi; basePath: string; embedded?: boolean }) {
  const { t } = useTranslation();
  const { session, error, reloadApps } = useDashboardSession(api);
  const apps = useMemo<AppDto[]>(() => session?.apps ?? [], [session]);
  const [appId, setAppId] = useState<string | null>(() => localStorage.getItem(selectedKey(basePath)));
  const i18nProvider = useI18nextProvider({ i18nextInstance: fullI18n });

  const selectApp = useCallback(
    (id: string) => {
      localStorage.setItem(selectedKey(basePath), id);
      setAppId(id);
    },
    [basePath],
  );

  // A paused or overdue server's dashboard is read-only: its actions are hidden as in the preview.
  const state = useMemo<AnalyticsState | null>(
    () => (session ? { api, session, apps, app: apps.find((a) => a._id === appId) ?? apps[0] ?? null, selectApp, reloadApps, writable: api.writable && session.access === 'full', basePath, embedded } : null),
    [api, session, apps, appId, selectApp, reloadApps, basePath, embedded],
  );

  if (error)
    return (
      <Box sx={{ p: 4 }}>
        <Typography variant="h1" sx={{ mb: 2 }}>
          {t('analytics.title')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{t('analytics.openFailed')}</Typography>
        <QueryFailure error={error} />
        {/* At the server's own address a session comes only from the portal's "Open dashboard". */}
        {clientConfig.serverDashboard && (
          <Button variant="contained" href={`${clientConfig.portalUrl ?? ''}/#/deployments/${encodeURIComponent(clientConfig.serverDashboard)}`} sx={{ mt: 2 }}>
            {t('analytics.openFromPortal', { product: clientConfig.productName })}
          </Button>
        )}
      </Box>
    );
  if (!state || !i18nProvider)
    return (
      <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center', p: 4 }}>
        <CircularProgress size={24} /> {t('analytics.loading')}
      </Box>
    );

  return (
    <AnalyticsContext.Provider value={state}>
      <I18nextProvider i18n={fullI18n}>
      <Admin queryClient={queryClient} basename={basePath} i18nProvider={i18nProvider} theme={appTheme()} layout={AnalyticsLayout} notification={ToastNotification} disableTelemetry>
        <CustomRoutes>
          <Route path="/" element={<Navigate to="events/overview" replace />} />
          <Route path="/events" element={<Navigate to="overview" replace />} />
          <Route path="/events/overview" element={<EventsOverviewPage />} />
          <Route path="/events/all" element={<AllEventsPage />} />
          <Route path="/events/top" element={<TopEventsPage />} />
          <Route path="/events/groups" element={<EventGroupsPage />} />
          <Route path="/views" element={<ViewsPage />} />
          <Route path="/app-users" element={<AppUsersPage />} />
          <Route path="/reports" element={<ReportsPage />} />
          <Route path="/jobs" element={<JobsPage />} />
          <Route path="/versions" element={<VersionHistoryPage />} />
          <Route path="/settings" element={<UserSettingsPage />} />
          <Route path="/manage/configurations/api" element={<ApiConfigurationsPage />} />
          <Route path="/apps" element={<AppList />} />
          <Route path="/apps/create" element={<AppCreate />} />
          <Route path="/apps/:id" element={<AppEdit />} />
          <Route path="/members" element={<MemberList />} />
          <Route path="/members/create" element={<MemberCreate />} />
          <Route path="/members/:id" element={<MemberEdit />} />
          <Route path="/tokens" element={<TokenList />} />
          <Route path="/tokens/create" element={<TokenCreate />} />
        </CustomRoutes>
      </Admin>
      </I18nextProvider>
    </AnalyticsContext.Provider>
  );
}
