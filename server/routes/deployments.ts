import type { FastifyPluginAsync } from 'fastify';
import { pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { companyBillingCountry } from '../services/companies';
import { priceDeployment } from '../services/pricing';
import { ok } from './envelope';

export const deploymentRoutes: FastifyPluginAsync = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', async (request) => {
    const body = pricingRequestSchema.parse(request.body);
    let country: string | null = null;
    if (body.company) {
      const { user } = await request.requireSession();
      country = await companyBillingCountry(app.database.db, body.company, user.id);
    }
    return ok(await priceDeployment(app.database.db, body, { now: new Date(), country }));
  });
};
