import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '../../../src/domain/admin/schemas';
import {
  ADMIN_DEPLOYMENT_ACTIONS,
  ADMIN_TASK_ACTIONS,
  adminDeploymentActionBodySchema,
  adminDeploymentDetailSchema,
  adminDeploymentRowSchema,
  adminTaskDetailSchema,
  adminTaskFilters,
  adminTaskRowSchema,
  adminTaskUpdateSchema,
} from '../../../src/domain/admin/deployments';
import { adminDeploymentListDialect } from '../../../src/domain/deployments/listQuery';
import { DEPLOYMENT_EXPORT_COLUMNS } from '../../services/adminDeployments';
import { TASK_EXPORT_COLUMNS, TASK_SORT_FIELDS } from '../../services/adminDeploymentTasks';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

const tags = ['admin'];

/** Admin area: every server (SPEC §2 admin routes) and a server's page with its tasks. */
export const adminDeploymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminDeployments;
  await app.register(
    adminListing({
      resource: 'deployments',
      ...adminDeploymentListDialect,
      row: adminDeploymentRowSchema,
      columns: DEPLOYMENT_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/deployments/:id', { schema: { tags, params: idParamsSchema, response: replies(adminDeploymentDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { deploymentId: request.params.id }));
  });

  // The customer's actions (restart, delete...) run by a platform admin; the answer is the server's page again.
  app.post(
    '/deployments/:id/:action',
    { schema: { tags, params: idParamsSchema.extend({ action: z.enum(ADMIN_DEPLOYMENT_ACTIONS) }), body: adminDeploymentActionBodySchema, response: replies(adminDeploymentDetailSchema) } },
    async (request) => {
      const user = request.actor;
      return ok(await service.act(user, { deploymentId: request.params.id, action: request.params.action, body: request.body ?? {} }));
    },
  );
};

/** Admin area: the task queue, a task's page, retry, cancel and assign. */
export const adminDeploymentTaskRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminDeploymentTasks;
  await app.register(
    adminListing({
      resource: 'deploymentTasks',
      sortFields: TASK_SORT_FIELDS,
      defaultSort: ['createdAt', 'DESC'],
      row: adminTaskRowSchema,
      filters: adminTaskFilters,
      columns: TASK_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/deploymentTasks/:id', { schema: { tags, params: idParamsSchema, response: replies(adminTaskDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { taskId: request.params.id }));
  });

  app.put('/deploymentTasks/:id', { schema: { tags, params: idParamsSchema, body: adminTaskUpdateSchema, response: replies(adminTaskDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.assign(user, { taskId: request.params.id, assigneeId: request.body.assigneeId }));
  });

  app.post(
    '/deploymentTasks/:id/:action',
    { schema: { tags, params: idParamsSchema.extend({ action: z.enum(ADMIN_TASK_ACTIONS) }), body: z.object({}).nullish(), response: replies(adminTaskDetailSchema) } },
    async (request) => {
      const user = request.actor;
      const input = { taskId: request.params.id };
      return ok(await (request.params.action === 'retry' ? service.retry(user, input) : service.cancel(user, input)));
    },
  );
};
