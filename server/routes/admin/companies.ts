import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminCompanyDetailSchema, adminCompanyFilters, adminCompanyRowSchema, adminCompanyUpdateSchema, idParamsSchema, viewAsAnswerSchema } from '../../../src/domain/admin/schemas';
import { COMPANY_EXPORT_COLUMNS, COMPANY_SORT_FIELDS } from '../../services/adminCompanies';
import { ok, replies } from '../envelope';
import { adminListing } from './listing';

const tags = ['admin'];

/** Admin area: companies (SPEC §2 admin routes): list with filters, a company's page, edit, view as its admin. */
export const adminCompanyRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.adminCompanies;
  await app.register(
    adminListing({
      resource: 'companies',
      sortFields: COMPANY_SORT_FIELDS,
      row: adminCompanyRowSchema,
      filters: adminCompanyFilters,
      columns: COMPANY_EXPORT_COLUMNS,
      list: (actor, input) => service.list(actor, input),
      export: (actor, input) => service.export(actor, input),
    }),
  );

  app.get('/companies/:id', { schema: { tags, params: idParamsSchema, response: replies(adminCompanyDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.get(user, { companyId: request.params.id }));
  });

  app.put('/companies/:id', { schema: { tags, params: idParamsSchema, body: adminCompanyUpdateSchema, response: replies(adminCompanyDetailSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await service.update(user, { companyId: request.params.id, name: request.body.name, planGroupId: request.body.planGroupId }));
  });

  app.post('/companies/:id/view-as', { schema: { tags, params: idParamsSchema, body: z.object({}).nullish(), response: replies(viewAsAnswerSchema) } }, async (request) => {
    const session = request.actorSession;
    return ok(await service.viewAs(session, { companyId: request.params.id }));
  });
};
