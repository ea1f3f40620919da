/**
 * The shell's route table (SPEC §2), kept free of React so that build scripts can read it too.
 * `page` is a module path from the project root, loaded lazily; main-layout routes all load the
 * react-admin app.
 */
export interface RouteMeta {
  prelogin?: boolean;
  welcome?: boolean;
  onboarding?: boolean;
  hideNavbar?: boolean;
  hideFooter?: boolean;
  /** i18n key of the page title; the product name alone when absent. */
  titleKey?: string;
  /** Query parameters that leave the page's first screen as it is (its prerendered one still applies). */
  firstScreenQuery?: string[];
}

export interface ShellRoute {
  path: string;
  meta: RouteMeta;
  page?: string;
  redirect?: string;
}

/** The lazily loaded react-admin app that renders every main-layout and admin route. */
export const MAIN_APP_MODULE = 'src/MainApp';

export const SHELL_ROUTES: ShellRoute[] = [
  { path: '/', meta: { prelogin: true }, redirect: '/account/create' },
  { path: '/account/create', meta: { prelogin: true, welcome: true, titleKey: 'titles.signUp' }, page: 'portal/auth/SignUpPage' },
  // The mailed token is checked after the first render: it shows 'Checking your invitation…' whatever the token.
  { path: '/account/invited', meta: { prelogin: true, welcome: true, titleKey: 'titles.invited', firstScreenQuery: ['token'] }, page: 'portal/auth/InvitedSignUpPage' },
  { path: '/account/signin', meta: { prelogin: true, welcome: true, titleKey: 'titles.signIn' }, page: 'portal/auth/SignInPage' },
  { path: '/account/magic-link', meta: { prelogin: true, welcome: true, titleKey: 'titles.magicLink' }, page: 'portal/auth/MagicLinkPage' },
  { path: '/forgot-password', meta: { prelogin: true, welcome: true, titleKey: 'titles.forgotPassword' }, page: 'portal/auth/ForgotPasswordPage' },
  { path: '/request-unlock', meta: { prelogin: true, welcome: true, titleKey: 'titles.requestUnlock' }, page: 'portal/auth/RequestUnlockPage' },
  { path: '/signin', meta: { prelogin: true }, redirect: '/account/signin' },
  { path: '/get-started', meta: { prelogin: true }, redirect: '/get-started/choose-plan' },
  { path: '/get-started/*', meta: { prelogin: true, hideFooter: true, titleKey: 'titles.getStarted' }, page: 'portal/wizard/GetStartedPage' },
  { path: '/pricing', meta: { prelogin: true, hideFooter: true, titleKey: 'titles.pricing' }, page: 'portal/pricing/PricingPage' },
  { path: '/tools/free-app-profile-review', meta: { prelogin: true, titleKey: 'titles.appProfileReview' }, page: 'portal/tools/FreeAppProfileReviewPage' },
  { path: '/tools/dashboard-preview/*', meta: { prelogin: true, hideNavbar: true, titleKey: 'titles.dashboardPreview' }, page: 'portal/tools/DashboardPreviewPage' },
  // Onboarding: in the welcome layout but not prelogin; the page itself asks for a session.
  { path: '/account/company', meta: { welcome: true, onboarding: true, titleKey: 'titles.company' }, page: 'portal/onboarding/CompanyPage' },
  { path: '/account/verify', meta: { welcome: true, onboarding: true, titleKey: 'titles.verify' }, page: 'portal/onboarding/VerifyPage' },
  // Pass-through routes (SPEC §2 navigation guard): never redirected by the guard.
  { path: '/loading', meta: { titleKey: 'titles.loading' }, page: 'portal/auth/LoadingPage' },
  { path: '/redirect', meta: { titleKey: 'titles.redirect' }, page: 'src/pages/RedirectPage' },
];

/**
 * Each server's analytics dashboard: signed-in like the main layout, but its own lazily
 * loaded react-admin app, so neither the front door nor the portal carries it.
 */
export const ANALYTICS_APP_MODULE = 'analytics/portal/AnalyticsApp';
export const ANALYTICS_PATTERN = '/analytics/:deploymentId/*';

/** Main-layout and admin paths (SPEC §2 logged-in and admin routes), matched before not-found. */
export const MAIN_APP_PATTERNS = [
  '/dashboard',
  '/deployments/*',
  '/management/*',
  '/profile/*',
  '/server-builder/*',
  '/admin/*',
  '/c/:cid/p/:pid/*',
  ANALYTICS_PATTERN,
];

export const NOT_FOUND_PAGE = 'src/pages/NotFoundPage';
