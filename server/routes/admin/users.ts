import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_USER_ACTIONS, adminUserDetailSchema, adminUserRowSchema, adminUserUpdateSchema, idParamsSchema } from '../../../src/domain/admin/schemas';
import { USER_EXPORT_COLUMNS, USER_SORT_FIELDS } from '../../services/adminUsers';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

const tags = ['admin'];

/** Admin area: users (SPEC §2 admin routes), in ra-data-simple-rest form, and the support actions. */
export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminUsers;
  await app.register(
    adminListing({
      resource: 'users',
      sortFields: USER_SORT_FIELDS,
      row: adminUserRowSchema,
      columns: USER_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/users/:id', { schema: { tags, params: idParamsSchema, response: replies(adminUserDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { userId: request.params.id }));
  });

  // react-admin's update: the platform admin role (never the last admin, never oneself).
  app.put('/users/:id', { schema: { tags, params: idParamsSchema, body: adminUserUpdateSchema, response: replies(adminUserDetailSchema) } }, async (request) => {
    const user = request.actor;
    await service.setPlatformAdmin(user, { userId: request.params.id, isAdmin: request.body.isAdmin });
    return ok(await service.get(user, { userId: request.params.id }));
  });

  app.delete('/users/:id', { schema: { tags, params: idParamsSchema, response: replies(z.object({ _id: z.string() })) } }, async (request) => {
    const user = request.actor;
    await service.delete(user, { userId: request.params.id });
    return ok({ _id: request.params.id });
  });

  app.post(
    '/users/:id/:action',
    { schema: { tags, params: idParamsSchema.extend({ action: z.enum(ADMIN_USER_ACTIONS) }), body: z.object({}).nullish(), response: replies(adminUserDetailSchema) } },
    async (request) => {
      const user = request.actor;
      const input = { userId: request.params.id };
      const run = { lock: service.lock, unlock: service.unlock, 'end-sessions': service.endSessions, 'resend-verification': service.resendVerification }[request.params.action];
      await run(user, input);
      return ok(await service.get(user, input));
    },
  );
};
