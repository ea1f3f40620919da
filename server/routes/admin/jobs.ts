import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_JOB_ACTIONS, adminJobRowSchema } from '../../../src/domain/admin/jobs';
import { JOB_EXPORT_COLUMNS, JOB_SORT_FIELDS } from '../../services/adminJobs';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

const tags = ['admin'];
const nameParams = z.object({ id: z.string().max(100) });

/** Admin area: the worker's queues and schedules; run a scheduled job now, pause or resume it. */
export const adminJobRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminJobs;
  await app.register(
    adminListing({
      resource: 'jobs',
      sortFields: JOB_SORT_FIELDS,
      defaultSort: ['name', 'ASC'],
      row: adminJobRowSchema,
      columns: JOB_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/jobs/:id', { schema: { tags, params: nameParams, response: replies(adminJobRowSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { name: request.params.id }));
  });

  app.post(
    '/jobs/:id/:action',
    { schema: { tags, params: nameParams.extend({ action: z.enum(ADMIN_JOB_ACTIONS) }), body: z.object({}).nullish(), response: replies(adminJobRowSchema) } },
    async (request) => {
      const user = request.actor;
      return ok(await service.act(user, { name: request.params.id, action: request.params.action }));
    },
  );
};
