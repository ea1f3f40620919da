import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { loadAddressedPage, ShellProviders, ShellRoutes } from './App';
import { clientConfig } from './clientConfig';

/**
 * The build's first-screen renderer (scripts/prerender.ts, loaded through Vite in Node): the
 * markup and styles React's first render in the browser makes for a visitor at `path`, so the
 * page can paint before its scripts run. `googleSignIn` renders it as a server with a Google
 * client id shows it (the button's place and the divider).
 */
export async function renderFirstScreen(path: string, { googleSignIn }: { googleSignIn: boolean }): Promise<string> {
  clientConfig.googleClientId = googleSignIn ? 'prerendered' : null;
  await loadAddressedPage(path);
  // The same output for the same build (the welcome panel picks its brand logos at random).
  const random = Math.random;
  Math.random = () => 0;
  try {
  // One style cache for the render, so each rule goes out once (the browser's cache key, 'css', so
  // that emotion there adopts these styles instead of inserting them again).
    return renderToString(
      <CacheProvider value={createCache({ key: 'css' })}>
        <ShellProviders>
          <MemoryRouter initialEntries={[path]}>
            <ShellRoutes />
          </MemoryRouter>
        </ShellProviders>
      </CacheProvider>,
    );
  } finally {
    Math.random = random;
  }
}

export const PRERENDERED_PRODUCT_NAME = clientConfig.productName;
