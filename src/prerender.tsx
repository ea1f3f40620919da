import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createPath, Router, type Navigator } from 'react-router';
import { loadAddressedPage, ShellProviders, ShellRoutes } from './App';
import { clientConfig } from './clientConfig';

/**
 * A later screen whose styles go out with a page's first screen: the browser's emotion adopts them
 * with the first screen's, so the commit that shows that screen neither compiles nor inserts them.
 * The invited page's form shows once the invitation is checked, in the page's largest commit.
 */
const LATER_SCREENS: Record<string, () => Promise<ReactElement>> = {
  '/account/invited': async () => {
    const { default: InvitedForm } = await import('../portal/auth/InvitedForm');
    const invitation = { email: 'invitee@example.com', companyName: '', role: 'viewer', existingUser: false };
    return <InvitedForm token="" invitation={invitation} onAccepted={() => undefined} />;
  },
};

/** React's mark of a Suspense boundary it could not finish on the server (left to the client). */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

/** Links as the app's HashRouter writes them (`#/account/signin`): the app hydrates these. */
const hashLinks: Navigator = {
  createHref: (to) => `#${typeof to === 'string' ? to : createPath(to)}`,
  go: () => undefined,
  push: () => undefined,
  replace: () => undefined,
};

/**
 * The build's first-screen renderer (scripts/prerender.ts, loaded through Vite in Node): the
 * markup and styles React's first render in the browser makes for a visitor at `path`, so the
 * page can paint before its scripts run and the app can take it over by hydrating it. The tree is
 * the app's own (ShellRoutes), so that `useId`'s ids match. `googleSignIn` renders it as a server
 * with a Google client id shows it (the button's place and the divider).
 */
export async function renderFirstScreen(path: string, { googleSignIn }: { googleSignIn: boolean }): Promise<string> {
  clientConfig.googleClientId = googleSignIn ? 'prerendered' : null;
  await loadAddressedPage(path);
  const later = await LATER_SCREENS[path]?.();
  // One style cache for the renders of a page, so each rule goes out once (the browser's cache key,
  // 'css', so that emotion there adopts these styles instead of inserting them again).
  const render = (element: ReactElement, cache: EmotionCache) =>
    renderToString(
      <CacheProvider value={cache}>
        <ShellProviders>
          <Router location={path} navigator={hashLinks} static>
            {element}
          </Router>
        </ShellProviders>
      </CacheProvider>,
    );
  let cache = createCache({ key: 'css' });
  let first = render(<ShellRoutes />, cache);
  // A lazy part (the Google row) renders its fallback until its module is in, as a boundary the
  // app would have to render afresh instead of hydrating it: render again once it is.
  for (let tries = 0; first.includes(CLIENT_RENDERED_BOUNDARY) && tries < 20; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    cache = createCache({ key: 'css' });
    first = render(<ShellRoutes />, cache);
  }
  if (first.includes(CLIENT_RENDERED_BOUNDARY)) throw new Error(`prerender: ${path} still waits for a lazy part`);
  // Of the later screen, only the style tags its render adds.
  const laterStyles = later ? (render(later, cache).match(/<style data-emotion="[^"]*">[\s\S]*?<\/style>/g) ?? []).join('') : '';
  return first + laterStyles;
}

export const PRERENDERED_PRODUCT_NAME = clientConfig.productName;
