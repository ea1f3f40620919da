import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema, planGroupCreateSchema, planGroupDetailSchema, planGroupEditorSchema, planGroupRowSchema, planGroupUpdateSchema } from '../../../src/domain/admin/schemas';
import { PLAN_GROUP_EXPORT_COLUMNS, PLAN_GROUP_SORT_FIELDS } from '../../services/adminPlanGroups';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

const tags = ['admin'];

/** Admin area: plan groups (SPEC §2 admin routes): CRUD, and the editor's catalogue with the group's selection. */
export const adminPlanGroupRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminPlanGroups;
  await app.register(
    adminListing({
      resource: 'plan-groups',
      sortFields: PLAN_GROUP_SORT_FIELDS,
      row: planGroupRowSchema,
      columns: PLAN_GROUP_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/plan-groups/:id', { schema: { tags, params: idParamsSchema, response: replies(planGroupDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { id: request.params.id }));
  });

  app.get('/plan-groups/:id/editor', { schema: { tags, params: idParamsSchema, response: replies(planGroupEditorSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.editor(user, { id: request.params.id }));
  });

  app.post('/plan-groups', { schema: { tags, body: planGroupCreateSchema, response: replies(planGroupDetailSchema, 201) } }, async (request, reply) => {
    const user = request.actor;
    return reply.status(201).send(ok(await service.create(user, request.body)));
  });

  app.put('/plan-groups/:id', { schema: { tags, params: idParamsSchema, body: planGroupUpdateSchema, response: replies(planGroupDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.update(user, { ...request.body, id: request.params.id }));
  });

  app.delete('/plan-groups/:id', { schema: { tags, params: idParamsSchema, response: replies(planGroupDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.delete(user, { id: request.params.id }));
  });
};
