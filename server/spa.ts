import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TFunction } from 'i18next';
import type { ClientConfig } from '../src/domain/clientConfig/schemas';
import type { Config } from './config';
import { AppError } from './errors';
import { devMailboxEnabled } from './services/devMailbox';
import { encodeOnce, sendEncoded } from './http/cached';
import { productSecurityHeaders } from './plugins/security';

/** Where index.html receives the client configuration (a meta tag: its inline script is fixed at build). */
export const CLIENT_CONFIG_PLACEHOLDER = '%CLIENT_CONFIG%';
export const DESCRIPTION_PLACEHOLDER = '%DESCRIPTION%';

/** The text of each inline script (no `src`) in a page. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Serves the built single-page app from the same origin as the API: hashed assets cached for a
 * year, index.html revalidated on every visit (ETag, 304) and filled with the runtime
 * configuration. The build wrote brotli and gzip copies of every text asset; the best one the
 * browser accepts is sent.
 */
type LegalDocument = 'terms' | 'privacy';
const LEGAL_SETTINGS: Record<LegalDocument, 'TERMS_URL' | 'PRIVACY_URL'> = { terms: 'TERMS_URL', privacy: 'PRIVACY_URL' };

/** The page a legal link shows while the operator has published no document of their own. */
function legalPlaceholder(t: TFunction, product: string, document: LegalDocument): string {
  const title = escapeAttribute(t(`legal.${document}.title`, { product }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:2rem 1.5rem;color:#1b1f24}h1{font-size:1.5rem}code{background:#f0f2f4;padding:0 .25rem;border-radius:4px}</style>
</head><body><main><h1>${title}</h1>
<p>${escapeAttribute(t(`legal.${document}.what`, { product }))}</p>
<p>${escapeAttribute(t('legal.notPublished', { product }))}</p>
<p>${escapeAttribute(t('legal.operator', { setting: LEGAL_SETTINGS[document] })).replace(LEGAL_SETTINGS[document], `<code>${LEGAL_SETTINGS[document]}</code>`)}</p>
</main></body></html>`;
}

/**
 * The sign-up boxes' links (/legal/terms, /legal/privacy) go on to the documents the operator
 * configured (TERMS_URL, PRIVACY_URL): the links are the same in the prerendered first screen
 * and the app, whatever the configuration. Unset, a page says what the document is and how the
 * operator publishes theirs.
 */
export function registerLegalLinks(app: FastifyInstance, config: Pick<Config, 'TERMS_URL' | 'PRIVACY_URL' | 'PRODUCT_NAME'>, t: TFunction) {
  app.get<{ Params: { document: string } }>('/legal/:document', async (request, reply) => {
    const { document } = request.params;
    if (!Object.hasOwn(LEGAL_SETTINGS, document)) throw new AppError('NOT_FOUND');
    const to = config[LEGAL_SETTINGS[document as LegalDocument]];
    if (to) return reply.redirect(to, 302);
    return reply
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
      .type('text/html; charset=utf-8')
      .send(legalPlaceholder(t, config.PRODUCT_NAME, document as LegalDocument));
  });
}

export async function registerSpa(app: FastifyInstance, config: Config, t: TFunction): Promise<boolean> {
  const root = resolve(config.STATIC_DIR);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ root }, 'no built app found; run `npm run build` to serve the web app');
    return false;
  }
  const clientConfig: ClientConfig = { productName: config.PRODUCT_NAME, sentryDsn: config.SENTRY_DSN ?? null, googleClientId: config.GOOGLE_CLIENT_ID ?? null, callBookingUrl: config.CALL_BOOKING_URL ?? null, affiliateUrl: config.AFFILIATE_URL ?? null, deletionGraceSeconds: config.DELETION_GRACE_SECONDS, intercom: config.INTERCOM_APP_ID ? { appId: config.INTERCOM_APP_ID, apiBase: config.INTERCOM_API_BASE } : null, devMailbox: devMailboxEnabled(config) };
  const template = readFileSync(indexFile, 'utf8')
    .replace(DESCRIPTION_PLACEHOLDER, escapeAttribute(t('product.metaDescription')))
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(config.PRODUCT_NAME)}</title>`);
  const html = template.replace(CLIENT_CONFIG_PLACEHOLDER, escapeAttribute(JSON.stringify(clientConfig)));
  // At a server's own address the page is that server's dashboard, with the way back to the portal.
  const serverPage = (deploymentId: string) => template.replace(CLIENT_CONFIG_PLACEHOLDER, escapeAttribute(JSON.stringify({ ...clientConfig, serverDashboard: deploymentId, portalUrl: config.publicUrl })));

  // Compressed while the server finishes starting; requests before it is done wait for it.
  const index = encodeOnce(Buffer.from(html));
  // The page's own policy also allows its inline script (the prerendered first screen), by hash.
  const indexPolicy = productSecurityHeaders(config, inlineScripts(html))['content-security-policy'] ?? '';
  const serverPolicy = productSecurityHeaders(config, inlineScripts(html), 'server')['content-security-policy'] ?? '';

  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    preCompressed: true,
    // Vite puts content-hashed files under assets/: they never change, so cache them for a year.
    setHeaders(reply, path) {
      reply.header('cache-control', path.startsWith(join(root, 'assets')) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.serverHost) return reply.header('content-security-policy', serverPolicy).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(serverPage(request.serverHost.deploymentId));
    reply.header('content-security-policy', indexPolicy);
    return sendEncoded(request, reply, await index, 'text/html; charset=utf-8', 'no-cache');
  };
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  return true;
}
