import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeRule } from '../../src/domain/companies/access';
import { API_PREFIX } from './routeSchemas';

/** "GET /companies/{id}/users": a route as the OpenAPI document and ROUTE_ACCESS name it. */
export const routeKey = (method: string, url: string) => `${method} ${url.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}')}`;

/**
 * The signed-in scope's role check, before the body is validated: the rule ROUTE_ACCESS gives the
 * route (src/domain/companies/access.ts). A route of this scope without a rule stops the server
 * from starting, so none can be added without saying who may call it.
 */
export function guardCompanyAccess(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      if (!routeRule(routeKey(method, route.url))) throw new Error(`${routeKey(method, route.url)} has no rule in ROUTE_ACCESS (src/domain/companies/access.ts)`);
    }
  });
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const rule = routeRule(routeKey(request.method, request.routeOptions.url ?? ''));
    if (rule) await request.server.companyAccess.check(request.actor.id, rule, request);
  });
}
