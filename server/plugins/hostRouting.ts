import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import type { ServerHosts } from '../services/serverHosts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request came to a server's own address (its default one or its verified domain). */
    serverHost: { deploymentId: string; custom: boolean } | null;
  }
}

/** The SDK paths every server answers at its own address. */
const SDK_PATHS = new Set(['/i', '/i/bulk', '/o/sdk']);
/** Portal-only paths outside the API that a server's address never serves. */
const PORTAL_ONLY = /^\/(?:api\/|dev\/|metrics(?:\/|$)|legal\/|redirect(?:\/|$))/;

/** What a server's address serves: its SDK paths, its dashboard's API and sign-in, and the app's files. */
export function servedAtServer(path: string, deploymentId: string): boolean {
  if (SDK_PATHS.has(path)) return true;
  if (path === `/api/v1/analytics/${deploymentId}` || path.startsWith(`/api/v1/analytics/${deploymentId}/`)) return true;
  if (path === '/api/v1/health' || path === '/api/v1/dashboard/session') return true;
  return !PORTAL_ONLY.test(path);
}

/**
 * Sorts every request by its Host (services/serverHosts.ts): Beacon's own host serves the portal;
 * a server's address serves that server only (its SDK paths, its dashboard and that dashboard's
 * API: another server's id or any portal route answers 404); any other host answers 404.
 */
export const hostRoutingPlugin = fp(async (app: FastifyInstance, { hosts }: { hosts: ServerHosts }) => {
  app.decorateRequest('serverHost', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const target = await hosts.resolve(request.host);
    if (target.kind === 'portal') return;
    if (target.kind === 'unknown') throw new AppError('UNKNOWN_HOST');
    const path = (request.raw.url ?? '/').split('?')[0] ?? '/';
    if (!servedAtServer(path, target.deploymentId)) throw new AppError('NOT_FOUND');
    request.serverHost = { deploymentId: target.deploymentId, custom: target.custom };
  });
});
