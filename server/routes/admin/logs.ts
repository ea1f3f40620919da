import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogFilters, auditLogRowSchema, idParamsSchema } from '../../../src/domain/admin/schemas';
import { LOG_EXPORT_COLUMNS, LOG_SORT_FIELDS } from '../../services/adminLogs';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

/** Admin area: the audit log (SPEC §2 admin routes), read-only: list, one entry, export. */
export const adminLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminLogs;
  await app.register(
    adminListing({
      resource: 'logs',
      sortFields: LOG_SORT_FIELDS,
      defaultSort: ['at', 'DESC'],
      row: auditLogRowSchema,
      filters: auditLogFilters,
      columns: LOG_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/logs/:id', { schema: { tags: ['admin'], params: idParamsSchema, response: replies(auditLogRowSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { id: request.params.id }));
  });
};
