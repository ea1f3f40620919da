import scalar from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The API's OpenAPI document (`/openapi.json`, built by @fastify/swagger from the route schemas)
 * and its reader (`/docs`, Scalar). Scalar's page runs an inline start-up script and inline
 * styles, so this scope alone gets a CSP that allows them; the rest of the product keeps the
 * strict one set in plugins/security.ts.
 */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
      );
    });
    await docs.register(scalar, {
      routePrefix: '/docs',
      configuration: { url: '/api/v1/openapi.json', withDefaultFonts: false, hideClientButton: true, telemetry: false, agent: { disabled: true } },
    });
  });
};
