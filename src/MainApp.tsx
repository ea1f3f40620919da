import { Admin, CustomRoutes, Resource } from 'react-admin';
import { useI18nextProvider } from 'ra-i18n-i18next';
import { I18nextProvider } from 'react-i18next';
import { Navigate, Route } from 'react-router';
import { ADMIN_RESOURCES } from '../admin/resources';
import { authProvider } from './authProvider';
import { dataProvider } from '../dataProvider/dataProvider';
import DashboardPage from '../portal/dashboard/DashboardPage';
import DeploymentsPage from '../portal/deployments/DeploymentsPage';
import ManagementPage from '../portal/management/ManagementPage';
import ProfilePage from '../portal/profile/ProfilePage';
import ServerBuilderPage from '../portal/wizard/ServerBuilder';
import { fullI18n } from './fullI18n';
import { MainLayout } from './layouts/MainLayout';
import { ProjectScope } from './ProjectScope';
import { queryClient } from './queryClient';
import { appTheme } from './theme';
import { ToastNotification } from './ui/toast/ToastNotification';

/**
 * The react-admin app: every main-layout page and the admin area. Loaded lazily, inside the
 * shell's hash router and theme; the shell's guard only lets signed-in users this far.
 */
export default function MainApp() {
  const i18nProvider = useI18nextProvider({ i18nextInstance: fullI18n });
  if (!i18nProvider) return null;
  return (
    <I18nextProvider i18n={fullI18n}>
    <Admin queryClient={queryClient} dataProvider={dataProvider} authProvider={authProvider} requireAuth i18nProvider={i18nProvider} theme={appTheme()} layout={MainLayout} notification={ToastNotification} disableTelemetry>
      {/* SPEC §2: the server wizard hides the navbar. */}
      <CustomRoutes noLayout>
        <Route path="/server-builder/*" element={<ServerBuilderPage />} />
        <Route
          path="/c/:cid/p/:pid/server-builder/*"
          element={
            <ProjectScope>
              <ServerBuilderPage />
            </ProjectScope>
          }
        />
      </CustomRoutes>
      <CustomRoutes>
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/deployments/*" element={<DeploymentsPage />} />
        <Route path="/management/*" element={<ManagementPage />} />
        <Route path="/profile/*" element={<ProfilePage />} />
        <Route
          path="/c/:cid/p/:pid/dashboard"
          element={
            <ProjectScope>
              <DashboardPage />
            </ProjectScope>
          }
        />
        <Route
          path="/c/:cid/p/:pid/deployments/*"
          element={
            <ProjectScope>
              <DeploymentsPage />
            </ProjectScope>
          }
        />
        <Route
          path="/c/:cid/p/:pid/management/*"
          element={
            <ProjectScope>
              <ManagementPage />
            </ProjectScope>
          }
        />
        <Route path="/admin" element={<Navigate to="/admin/companies" replace />} />
      </CustomRoutes>
      {/* The admin area: one list of resources (admin/resources.ts) at /admin/<name>. */}
      {ADMIN_RESOURCES.map(({ name, ...resource }) => (
        <Resource key={name} name={`admin/${name}`} {...resource} />
      ))}
    </Admin>
    </I18nextProvider>
  );
}
