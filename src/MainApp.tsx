import { Suspense } from 'react';
import { AccessDenied, AdminContext, AuthenticationError, CoreAdminUI, CustomRoutes, Error as ErrorPage, LoadingPage, localStorageStore, NotFound, Resource } from 'react-admin';
import { useI18nextProvider } from 'ra-i18n-i18next';
import { I18nextProvider } from 'react-i18next';
import { matchPath, Navigate, Route } from 'react-router';
import { ADMIN_RESOURCES } from '../admin/resources';
import { authProvider } from './authProvider';
import { dataProvider } from '../dataProvider/dataProvider';
import { fullI18n } from './fullI18n';
import { hashAddress } from './hashAddress';
import { MainLayout } from './layouts/MainLayout';
import { lazyPage, type LazyPage } from './lazyPage';
import { ProjectScope } from './ProjectScope';
import { MAIN_APP_PAGES } from './mainAppPages';
import { queryClient } from './queryClient';
import { appTheme } from './theme';
import { ToastNotification } from './ui/toast/ToastNotification';

// Each screen is a chunk its route loads: the app's own chunk holds react-admin, the layout and
// the admin area's tabs, not the screens (nor recharts or the date pickers, which they use).
const DashboardPage = lazyPage(() => import('../portal/dashboard/DashboardPage'));
const DeploymentsPage = lazyPage(() => import('../portal/deployments/DeploymentsPage'));
const ManagementPage = lazyPage(() => import('../portal/management/ManagementPage'));
const ProfilePage = lazyPage(() => import('../portal/profile/ProfilePage'));
const ServerBuilderPage = lazyPage(() => import('../portal/wizard/ServerBuilder'));
/** By module path, as `MAIN_APP_PAGES` (src/mainAppPages.ts) names them. */
const SCREENS: Record<string, LazyPage> = {
  'portal/dashboard/DashboardPage': DashboardPage,
  'portal/deployments/DeploymentsPage': DeploymentsPage,
  'portal/management/ManagementPage': ManagementPage,
  'portal/profile/ProfilePage': ProfilePage,
  'portal/wizard/ServerBuilder': ServerBuilderPage,
};

// The addressed screen starts loading with the app, not once the app's render reaches it (on a
// first visit index.html preloads it; this covers arriving from a front-door page).
{
  const path = hashAddress().split('?')[0] ?? '/';
  const addressed = MAIN_APP_PAGES.find((p) => matchPath(p.path, path) ?? matchPath(`/c/:cid/p/:pid${p.path}`, path));
  if (addressed) void SCREENS[addressed.page]?.load().catch(() => undefined);
}

const store = localStorageStore();
const CatchAll = () => <NotFound />;

/**
 * The react-admin app: every main-layout page and the admin area. Loaded lazily, inside the
 * shell's hash router and theme; the shell's guard only lets signed-in users this far. Put
 * together as react-admin's `<Admin>` does, without the parts we replace (its sign-in page and
 * form, default layout and notification), which `<Admin>` would bring into this chunk all the same.
 */
export default function MainApp() {
  const i18nProvider = useI18nextProvider({ i18nextInstance: fullI18n });
  if (!i18nProvider) return null;
  return (
    <I18nextProvider i18n={fullI18n}>
    <AdminContext queryClient={queryClient} dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} theme={appTheme()}>
    <CoreAdminUI requireAuth layout={MainLayout} loginPage={false} catchAll={CatchAll} loading={LoadingPage} error={ErrorPage} accessDenied={AccessDenied} authenticationError={AuthenticationError} disableTelemetry>
      {/* SPEC §2: the server wizard hides the navbar. */}
      <CustomRoutes noLayout>
        <Route
          path="/server-builder/*"
          element={
            <Suspense fallback={null}>
              <ServerBuilderPage />
            </Suspense>
          }
        />
        <Route
          path="/c/:cid/p/:pid/server-builder/*"
          element={
            <ProjectScope>
              <Suspense fallback={null}>
                <ServerBuilderPage />
              </Suspense>
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
    </CoreAdminUI>
    <ToastNotification />
    </AdminContext>
    </I18nextProvider>
  );
}
