/**
 * The address /redirect may follow: http(s) on this origin only, so the page cannot be used as an
 * open redirect to another site. Null for anything else.
 */
export function safeRedirectTarget(raw: string | null, origin: string): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin === origin ? url.href : null;
}
