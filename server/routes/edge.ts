import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { edgeAskAnswerSchema, edgeAskQuerySchema, serverCertificateSchema } from '../../src/domain/deployments/edge';
import { deploymentParamsSchema } from '../../src/domain/orders/schemas';
import { ok, replies } from './envelope';

/**
 * Caddy asks before it obtains a certificate (once per name, then at renewals): a generous cap
 * per caller that still stops a flood of names from making the edge ask the database for each.
 */
export const EDGE_ASKS_PER_MINUTE = 120;

/** The edge's ask (public scope: the service lets only the edge through, by address and token). */
export const edgeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/edge/ask',
    { config: { rateLimit: { max: EDGE_ASKS_PER_MINUTE, timeWindow: 60_000 }, requestContext: false }, schema: { tags: ['edge'], querystring: edgeAskQuerySchema, response: replies(edgeAskAnswerSchema) } },
    async (request) => ok(await app.edge.ask({ ip: request.ip, token: request.query.token }, request.query.domain)),
  );
};

/** A server's certificate as the edge serves it (customer scope: members of its company). */
export const edgeCustomerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/deployments/:id/certificate', { schema: { tags: ['deployments'], params: deploymentParamsSchema, response: replies(serverCertificateSchema) } }, async (request) =>
    ok(await app.edge.certificate(request.actor, request.params.id)),
  );
};

/** The same on the admin server page (admin scope). */
export const edgeAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/deployments/:id/certificate', { schema: { tags: ['admin'], params: deploymentParamsSchema, response: replies(serverCertificateSchema) } }, async (request) =>
    ok(await app.edge.certificateAsAdmin(request.actor, request.params.id)),
  );
};
