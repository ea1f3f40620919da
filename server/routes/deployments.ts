import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pricingAnswerSchema, pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { companyBillingCountry } from '../services/companies';
import { priceDeployment } from '../services/pricing';
import { ok, replies } from './envelope';

export const deploymentRoutes: FastifyPluginAsyncZod = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', { schema: { tags: ['deployments'], body: pricingRequestSchema, response: replies(pricingAnswerSchema) } }, async (request) => {
    const body = request.body;
    const session = body.company ? await request.requireSession() : await request.session();
    const country = body.company && session ? await companyBillingCountry(app.database.db, body.company, session.user.id) : null;
    const attempts = {
      counters: app.counters,
      keys: [`ip:${request.ip}`, ...(session ? [`user:${session.user.id}`] : [])],
      limit: { max: app.config.DISCOUNT_CHECKS_PER_HOUR, windowMinutes: 60 },
    };
    return ok(await priceDeployment(app.database.db, body, { now: new Date(), country, attempts }));
  });
};
