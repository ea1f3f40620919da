import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { urlOf } from '../jobs/machine';
import type { EdgeService } from '../services/edge';
import { hostnameOf } from '../services/serverHosts';

/**
 * Plain HTTP at a server's own address, behind the edge (edge/Caddyfile passes port 80 on to us):
 * sent on to HTTPS with 308 (an SDK's POST keeps its method and body) when the edge serves the name
 * over HTTPS (the ask's rule, `edge.servesHttps`); a server that removed SSL is served over HTTP.
 * A request is known to come through the edge only by X-Forwarded-Proto from a trusted proxy, so
 * without TRUST_PROXY (no edge: a development machine) nothing is redirected. Registered after
 * host routing, which sets `request.serverHost`.
 */
export const edgeRedirectPlugin = fp(async (app: FastifyInstance, { edge, config }: { edge: Pick<EdgeService, 'servesHttps'>; config: Pick<Config, 'TRUST_PROXY' | 'SERVER_ADDRESS_PORT'> }) => {
  if (config.TRUST_PROXY === false) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.serverHost || request.headers['x-forwarded-proto'] !== 'http' || request.protocol !== 'http') return;
    if (!(await edge.servesHttps(request.host))) return;
    return reply.redirect(`${urlOf(hostnameOf(request.host), true, config)}${request.raw.url ?? '/'}`, 308);
  });
});
