import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { startTransition, StrictMode, Suspense, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { HashRouter, matchPath, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { setTranslator } from '../dataProvider/httpClient';
import { FIRST_SCREEN_ATTRIBUTE } from './firstScreen';
import { hashAddress } from './hashAddress';
import { i18n } from './i18n';
import { PreloginLayout } from './layouts/PreloginLayout';
import { WelcomeLayout } from './layouts/WelcomeLayout';
import { lazyPage, type LazyPage, type PageModule } from './lazyPage';
import { ANALYTICS_APP_MODULE, ANALYTICS_PATTERN, MAIN_APP_MODULE, MAIN_APP_PATTERNS, NOT_FOUND_PAGE, SHELL_ROUTES, type ShellRoute } from './routeTable';
import { captureUtmTags, isSignedIn, peekReturnRoute, saveReturnRoute, session, takeReturnRoute, useSession } from './session';
import { appTheme } from './theme';
import { clientConfig } from './clientConfig';
import { useDocumentTitle } from './useDocumentTitle';

setTranslator(i18n);

// Every page is its own chunk: a visitor downloads only the page in front of them.
const modules = import.meta.glob<PageModule>(['../portal/{auth,onboarding,pricing,tools,wizard}/*Page.tsx', './pages/*Page.tsx', './MainApp.tsx', '../analytics/portal/AnalyticsApp.tsx']);
/** `../portal/auth/SignInPage.tsx` → `portal/auth/SignInPage`, the route table's module path. */
const modulePath = (key: string) => key.replace(/^\.\//, 'src/').replace(/^\.\.\//, '').replace(/\.tsx$/, '');
const pages = new Map(Object.entries(modules).map(([key, load]) => [modulePath(key), lazyPage(load)]));
/** The lazy component of a route-table module path such as `portal/auth/SignInPage`. */
function page(path: string): LazyPage {
  const component = pages.get(path);
  if (!component) throw new Error(`no page module ${path}`);
  return component;
}

/** The shell route of an address path, through its redirect. */
function shellRouteOf(pathname: string): ShellRoute | undefined {
  const find = (path: string) => SHELL_ROUTES.find((r) => matchPath(r.path, path));
  const route = find(pathname);
  return route?.redirect ? find(route.redirect) : route;
}

/**
 * Loads the page of an address (a hash path such as `/account/signin?x=1`), settling when it can
 * render without suspending. Started as soon as the shell runs, not after React's first render
 * reaches the page: one step less between the first byte and the page's own content; and the first
 * render, waiting for it, replaces the prerendered first screen (scripts/prerender.ts) with the same
 * page rather than a blank fallback.
 */
export function loadAddressedPage(address: string): Promise<unknown> {
  const route = shellRouteOf(address.split('?')[0] || '/');
  return route?.page ? page(route.page).load() : Promise.resolve();
}

const MainApp = page(MAIN_APP_MODULE);
const AnalyticsApp = page(ANALYTICS_APP_MODULE);
const NotFound = page(NOT_FOUND_PAGE);
const SHELL_PAGES = SHELL_ROUTES.map((route) => ({ route, Page: route.page ? page(route.page) : NotFound }));

const isMainPath = (pathname: string) => MAIN_APP_PATTERNS.some((pattern) => matchPath(pattern, pathname));

const EXPIRED = '/account/signin?error=session-timed-out';

/**
 * Session upkeep for the whole shell: resumes an earlier visit's session, sends an expired one to
 * sign-in from pages outside the guard, and keeps the utm tags of any visited address.
 */
function SessionKeeper() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
    captureUtmTags(location.search);
  }, [location]);
  useEffect(() => session.clearEnded(), [location.pathname]);
  useEffect(() => {
    // Marketing links may also carry the tags before the hash.
    captureUtmTags(window.location.search);
    void session.resume();
  }, []);
  // Guarded (main) pages react to the store themselves, in the same render as the session ends.
  useEffect(
    () =>
      session.onExpired(() => {
        if (!isMainPath(here.current.pathname)) navigate(EXPIRED);
      }),
    [navigate],
  );
  return null;
}

/**
 * A logged-out visit to a signed-in page: remember it, then let /loading sort out the session —
 * or, when the session was just lost, go straight to sign-in with the notice.
 */
function GuardRedirect({ attempted, expired }: { attempted: string; expired: boolean }) {
  // Decided once: the session store may change again before the navigation lands.
  const [target] = useState(() => (expired ? EXPIRED : '/loading'));
  useEffect(() => saveReturnRoute(attempted), [attempted]);
  return <Navigate to={target} replace />;
}

/** A session resumed on a welcome page goes on to where the user was heading (SPEC §2). */
function ResumeRedirect() {
  // Read once on mount and forgotten in the effect, so neither a re-render nor StrictMode's second
  // effect run can change where this goes.
  const [target] = useState(() => peekReturnRoute() ?? '/profile/account');
  useEffect(() => void takeReturnRoute(), []);
  return <Navigate to={target} replace />;
}

function RoutePage({ route, Page }: { route: ShellRoute; Page: LazyPage }) {
  useDocumentTitle(route.meta.titleKey);
  const { search } = useLocation();
  const { state } = useSession();
  if (route.redirect) return <Navigate to={{ pathname: route.redirect, search }} replace />;
  // Mailed links (magic link, reset) carry a token and are acted on even by a signed-in browser.
  if (state === 'IN_RESUMED' && route.meta.prelogin && route.meta.welcome && !new URLSearchParams(search).has('token')) {
    return <ResumeRedirect />;
  }
  if (route.meta.welcome) {
    return (
      <WelcomeLayout pricingLink={route.meta.prelogin}>
        <Page />
      </WelcomeLayout>
    );
  }
  if (route.meta.prelogin) {
    return (
      <PreloginLayout hideFooter={route.meta.hideFooter} hideNavbar={route.meta.hideNavbar}>
        <Page />
      </PreloginLayout>
    );
  }
  return <Page />;
}

/**
 * Anything not in the shell's table: the react-admin app for main-layout paths (signed-in users
 * only, admin paths for admins only; SPEC §2 navigation guard), else not-found.
 */
function Fallthrough() {
  const { pathname, search } = useLocation();
  const current = useSession();
  const isMain = isMainPath(pathname);
  useDocumentTitle(isMain ? undefined : 'titles.notFound');
  if (isMain) {
    if (!isSignedIn(current)) {
      // Signing out navigates away itself; until that lands, this page is no visit to remember.
      if (current.ended === 'signOut') return null;
      return <GuardRedirect attempted={pathname + search} expired={current.ended === 'expired'} />;
    }
    // A generated first-admin password: the API answers nothing else until it is changed.
    if (current.user?.mustChangePassword && pathname !== '/profile/account') return <Navigate to="/profile/account" replace />;
    if (matchPath('/admin/*', pathname) && !current.user?.isAdmin) return <Navigate to="/loading" replace />;
    // The dashboard's own routes are relative to its mount point, hence the nested route.
    if (matchPath(ANALYTICS_PATTERN, pathname))
      return (
        <Routes>
          <Route path={ANALYTICS_PATTERN} element={<AnalyticsApp />} />
        </Routes>
      );
    return <MainApp />;
  }
  return (
    <PreloginLayout>
      <NotFound />
    </PreloginLayout>
  );
}

/** The providers every shell render needs: translations, the theme and its baseline. */
export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={appTheme()}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </I18nextProvider>
  );
}

/**
 * What the page's first commit settles. The prerendered first screen becomes the app's: the
 * visitor can use it (the first-screen script made it inert). In the page's Suspense boundary, so
 * that this happens with the page's commit: a hydration commits the shell around a boundary first.
 * And the first render is a transition (startApp): while it yields, the address can change before
 * the router listens for changes (its listener comes with the first commit). After that commit the
 * router takes up the address it missed, if one changed.
 */
function FirstCommit() {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => document.getElementById('root')?.removeAttribute('inert'), []);
  useEffect(() => {
    const address = hashAddress();
    if (address !== `${location.pathname}${location.search}`) navigate(address, { replace: true });
    // Once, after the first commit: later changes reach the router's own listener.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

/** The shell's routes, inside a router: the browser's hash router, or the prerender's static one. */
export function ShellRoutes() {
  return (
    <>
      <SessionKeeper />
      <Suspense fallback={null}>
        <FirstCommit />
        <Routes>
          {SHELL_PAGES.map(({ route, Page }) => (
            <Route key={route.path} path={route.path} element={<RoutePage route={route} Page={Page} />} />
          ))}
          <Route path="*" element={<Fallthrough />} />
        </Routes>
      </Suspense>
    </>
  );
}

/**
 * At a server's own address the page is that server's dashboard alone: no portal routes, no portal
 * session (its origin has none; the sign-in link signs the member in there).
 */
function ServerDashboardRoutes({ deploymentId }: { deploymentId: string }) {
  return (
    <Suspense fallback={null}>
      <FirstCommit />
      <Routes>
        <Route path={ANALYTICS_PATTERN} element={<AnalyticsApp />} />
        <Route path="*" element={<Navigate to={`/analytics/${encodeURIComponent(deploymentId)}`} replace />} />
      </Routes>
    </Suspense>
  );
}

export function App() {
  const serverDashboard = clientConfig.serverDashboard;
  return (
    <ShellProviders>
      <HashRouter>{serverDashboard ? <ServerDashboardRoutes deploymentId={serverDashboard} /> : <ShellRoutes />}</HashRouter>
    </ShellProviders>
  );
}

/**
 * Whether the app can take over the first screen in `root` by hydrating it: the first-screen script
 * put one there (scripts/prerender.ts) for the address the browser is still at.
 */
const firstScreenFor = (root: HTMLElement) => Boolean(root.firstChild) && root.getAttribute(FIRST_SCREEN_ATTRIBUTE) === window.location.hash;

/**
 * Renders the app into `root`, once the addressed page has loaded, so that React's first render is
 * that page. Over a prerendered first screen it hydrates it: the markup on screen stays and gains
 * its event handlers, with no DOM to build, insert or lay out again. Otherwise it
 * renders afresh. A page that failed to load is left to the render to report.
 */
export async function startApp(root: HTMLElement): Promise<Root> {
  await loadAddressedPage(hashAddress()).catch(() => undefined);
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  const hydrate = firstScreenFor(root);
  // As a transition, in slices the browser can interrupt: the first screen is painted already, and
  // one long render task held a phone's main thread for a third of a second. An address
  // that changes meanwhile is taken up after the first commit (FirstCommit).
  let started: Root | undefined;
  startTransition(() => {
    // A first screen that no longer matches the app's first render (last year's footer, a wizard
    // order kept from an earlier visit) is rendered again, as before hydration: slower, no fault.
    if (hydrate) started = hydrateRoot(root, app, { onRecoverableError: console.warn });
    else (started = createRoot(root)).render(app);
  });
  if (!started) throw new Error('the app did not start');
  return started;
}
