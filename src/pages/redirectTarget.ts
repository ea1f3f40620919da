/**
 * The address /redirect may follow: http(s) on this origin, or the one server sign-in link this
 * tab itself asked the API for (handed over in sessionStorage, used once), so the page cannot be
 * used as an open redirect to another site. Null for anything else.
 */
export const SERVER_LINK_KEY = 'beacon.serverLink';

export function safeRedirectTarget(raw: string | null, origin: string, handedOver: string | null = null): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin === origin) return url.href;
  return handedOver !== null && raw === handedOver ? url.href : null;
}

/** Remembers the server sign-in link the tab is about to open through /redirect. */
export function handOverServerLink(url: string, storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage): void {
  try {
    storage?.setItem(SERVER_LINK_KEY, url);
  } catch {
    // Without storage the redirect page refuses the foreign link and offers the dashboard instead.
  }
}

/** The handed-over link, removed as it is read: it opens once. */
export function takeServerLink(storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage): string | null {
  try {
    const link = storage?.getItem(SERVER_LINK_KEY) ?? null;
    storage?.removeItem(SERVER_LINK_KEY);
    return link;
  } catch {
    return null;
  }
}
