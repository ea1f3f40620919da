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
  { path: '/account/signin', meta: { prelogin: true, welcome: true, titleKey: 'titles.signIn' }, page: 'portal/auth/SignInPage' },
  { path: '/signin', meta: { prelogin: true }, redirect: '/account/signin' },
  { path: '/pricing', meta: { prelogin: true, hideFooter: true, titleKey: 'titles.pricing' }, page: 'portal/pricing/PricingPage' },
  { path: '/loading', meta: { titleKey: 'titles.loading' }, page: 'src/pages/LoadingPage' },
];

/** Main-layout and admin paths (SPEC §2 logged-in and admin routes), matched before not-found. */
export const MAIN_APP_PATTERNS = [
  '/dashboard',
  '/deployments/*',
  '/management/*',
  '/profile/*',
  '/server-builder/*',
  '/admin/*',
  '/c/:cid/p/:pid/*',
];

export const NOT_FOUND_PAGE = 'src/pages/NotFoundPage';
