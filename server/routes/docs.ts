import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { API_PREFIX } from '../plugins/routeSchemas';

/** The docs reader's addresses, under the API prefix. */
const READER_PATHS = ['/docs', '/docs/', '/docs/js/scalar.js'];

/**
 * Scalar's plugin carries its 4.3 MB reader inside its module: loading it took a fifth of a second
 * of every start, for a page few people open. So it is loaded at the first request for
 * the docs, into a Fastify instance of its own that answers the reader's addresses from then on.
 */
function lazyReader() {
  let reader: Promise<FastifyInstance> | undefined;
  return {
    get: () =>
      (reader ??= (async () => {
        const { default: scalar } = await import('@scalar/fastify-api-reference');
        const instance = Fastify({ logger: false });
        await instance.register(scalar, {
          routePrefix: `${API_PREFIX}/docs`,
          configuration: { url: `${API_PREFIX}/openapi.json`, withDefaultFonts: false, hideClientButton: true, telemetry: false, agent: { disabled: true } },
        });
        await instance.ready();
        return instance;
      })()),
    async close() {
      await (await reader)?.close();
    },
  };
}

/**
 * The API's OpenAPI document (`/openapi.json`, built by @fastify/swagger from the route schemas)
 * and its reader (`/docs`, Scalar). Scalar's page runs an inline start-up script and inline
 * styles, so this scope alone gets a CSP that allows them; the rest of the product keeps the
 * strict one set in plugins/security.ts.
 */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const reader = lazyReader();
  app.addHook('onClose', async () => reader.close());
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'",
      );
    });
    for (const path of READER_PATHS) {
      docs.get(path, { schema: { hide: true } }, async (request, reply) => {
        const answer = await (await reader.get()).inject({ method: 'GET', url: request.url });
        for (const name of ['content-type', 'location'] as const) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        return reply.code(answer.statusCode).send(answer.rawPayload);
      });
    }
  });
};
