import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { I18nextProvider } from 'react-i18next';
import { HashRouter, matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { setTranslator } from '../dataProvider/httpClient';
import { i18n } from './i18n';
import { PreloginLayout } from './layouts/PreloginLayout';
import { WelcomeLayout } from './layouts/WelcomeLayout';
import { MAIN_APP_MODULE, MAIN_APP_PATTERNS, NOT_FOUND_PAGE, SHELL_ROUTES, type ShellRoute } from './routeTable';
import { theme } from './theme';
import { useDocumentTitle } from './useDocumentTitle';

setTranslator(i18n);

// Every page is its own chunk: a visitor downloads only the page in front of them.
const modules = import.meta.glob<{ default: ComponentType }>(['../portal/{auth,onboarding,pricing,wizard}/*Page.tsx', './pages/*Page.tsx', './MainApp.tsx']);
const pages = new Map<string, LazyExoticComponent<ComponentType>>(
  Object.entries(modules).map(([key, load]) => [key.replace(/^\.\//, 'src/').replace(/^\.\.\//, '').replace(/\.tsx$/, ''), lazy(load)]),
);
/** The lazy component of a route-table module path such as `portal/auth/SignInPage`. */
function page(path: string): LazyExoticComponent<ComponentType> {
  const component = pages.get(path);
  if (!component) throw new Error(`no page module ${path}`);
  return component;
}

const MainApp = page(MAIN_APP_MODULE);
const NotFound = page(NOT_FOUND_PAGE);
const SHELL_PAGES = SHELL_ROUTES.map((route) => ({ route, Page: route.page ? page(route.page) : NotFound }));

function RoutePage({ route, Page }: { route: ShellRoute; Page: ComponentType }) {
  useDocumentTitle(route.meta.titleKey);
  if (route.redirect) return <Navigate to={route.redirect} replace />;
  if (route.meta.welcome) {
    return (
      <WelcomeLayout>
        <Page />
      </WelcomeLayout>
    );
  }
  if (route.meta.prelogin) {
    return (
      <PreloginLayout hideFooter={route.meta.hideFooter}>
        <Page />
      </PreloginLayout>
    );
  }
  return <Page />;
}

/** Anything not in the shell's table: the react-admin app for main-layout paths, else not-found. */
function Fallthrough() {
  const { pathname } = useLocation();
  const isMain = MAIN_APP_PATTERNS.some((pattern) => matchPath(pattern, pathname));
  useDocumentTitle(isMain ? undefined : 'titles.notFound');
  if (isMain) return <MainApp />;
  return (
    <PreloginLayout>
      <NotFound />
    </PreloginLayout>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <HashRouter>
          <Suspense fallback={null}>
            <Routes>
              {SHELL_PAGES.map(({ route, Page }) => (
                <Route key={route.path} path={route.path} element={<RoutePage route={route} Page={Page} />} />
              ))}
              <Route path="*" element={<Fallthrough />} />
            </Routes>
          </Suspense>
        </HashRouter>
      </ThemeProvider>
    </I18nextProvider>
  );
}
