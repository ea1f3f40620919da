import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { noPayload, ok, replies } from './envelope';

/**
 * Leaving a read-only view as a company's admin (started in the admin area). Outside the admin
 * scope: while the view lasts the session acts as that company admin, who is no platform admin.
 */
export const viewAsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.delete('/view-as', { schema: { tags: ['admin'], response: replies(noPayload) } }, async (request) => {
    const session = request.actorSession;
    await app.adminCompanies.endViewAs(session);
    return ok(null);
  });
};
