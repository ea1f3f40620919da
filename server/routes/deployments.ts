import type { FastifyPluginAsync } from 'fastify';
import { pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { priceDeployment } from '../services/pricing';
import { ok } from './envelope';

export const deploymentRoutes: FastifyPluginAsync = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too. Tax needs a company's billing
  // country, so anonymous prices are before tax.
  app.post('/deployments/pricing', async (request) => {
    const body = pricingRequestSchema.parse(request.body);
    return ok(await priceDeployment(app.database.db, body, { now: new Date(), country: null }));
  });
};
