import { clientConfig } from '../src/clientConfig';

type Capture = (error: unknown) => void;
let capture: Promise<Capture | null> | null = null;

/** Loads the Sentry SDK only when a DSN is configured, and only on the first report. */
function load(): Promise<Capture | null> {
  const dsn = clientConfig.sentryDsn;
  if (!dsn) return Promise.resolve(null);
  capture ??= import('@sentry/browser').then((Sentry) => {
    Sentry.init({ dsn });
    return (error: unknown) => void Sentry.captureException(error);
  });
  return capture;
}

/** Server errors (status 500 and above) are reported; without SENTRY_DSN nothing is sent. */
export function reportError(error: unknown): void {
  void load().then((fn) => fn?.(error)).catch(() => undefined);
}
