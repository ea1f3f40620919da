import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';
import { AppError } from '../errors';
import { requestGuardsPlugin } from './requestGuards';

/** Origins the Content-Security-Policy allows beyond our own, derived from what is configured. */
function extraOrigins(config: Config) {
  const origin = (url?: string) => (url ? [new URL(url).origin] : []);
  // Google Identity Services: its script, its button and one-tap frames, and its styles.
  const gsi = config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/'] : [];
  // The support chat widget, only when its app id is configured: its script, API, assets and frames.
  const chat = config.INTERCOM_APP_ID;
  return {
    img: [...origin(config.CONTENT_URL), ...(chat ? ['https://*.intercomcdn.com', 'https://static.intercomassets.com'] : [])],
    connect: [...origin(config.SENTRY_DSN), ...gsi, ...(chat ? [new URL(config.INTERCOM_API_BASE).origin, 'https://*.intercom.io', 'wss://*.intercom.io'] : [])],
    script: [...(config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/client'] : []), ...(chat ? ['https://widget.intercom.io', 'https://js.intercomcdn.com'] : [])],
    style: config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/style'] : [],
    frame: [...gsi, ...(chat ? ['https://intercom-sheets.com'] : [])],
  };
}

/**
 * helmet's headers for these options. They depend on the configuration only (no nonces), so they
 * are worked out once at start; @fastify/helmet rebuilt them, CSP parsing included, on every
 * request (a third of what a health request cost beyond a bare route).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, collect as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * The product's security headers, with our Content-Security-Policy. `inlineScripts`: the text of
 * inline scripts a page may run, allowed by their SHA-256 alone (index.html's first-screen script).
 */
export function productSecurityHeaders(config: Config, inlineScripts: readonly string[] = [], where: 'portal' | 'server' = 'portal'): Record<string, string> {
  const extra = extraOrigins(config);
  // HTTPS everywhere only on the portal: a server's address may be plain HTTP (removeSSL), and
  // HSTS there would lock its customers' browsers out of it.
  const https = where === 'portal' && config.publicUrl.startsWith('https:');
  const hashes = inlineScripts.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  return securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...hashes, ...extra.script],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'", ...extra.style],
        // blob: for previews of a picture or logo before it is uploaded.
        imgSrc: ["'self'", 'data:', 'blob:', ...extra.img],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...extra.connect],
        frameSrc: extra.frame.length ? extra.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense when the product is served over HTTPS.
    strictTransportSecurity: https,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Security for every request: request guards (invalid text, oversized uploads), helmet's headers
 * with our Content-Security-Policy, and rate limiting (limits are set per route; a refusal
 * answers RATE_LIMITED through the error handler). The cross-site guard sits with the session
 * cookie it protects (plugins/session.ts).
 */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  await app.register(requestGuardsPlugin);

  const headers = productSecurityHeaders(config);
  const serverHeaders = productSecurityHeaders(config, [], 'server');
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.serverHost ? serverHeaders : headers);
    done();
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new AppError('RATE_LIMITED', { params: { after: context.after } }),
  });
}
