import type { FastifyPluginAsync } from 'fastify';
import { deploymentListQuerySchema } from '../../src/domain/deployments';
import { deploymentParamsSchema } from '../../src/domain/orders';
import { pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { createDeploymentReads } from '../services/deploymentReads';
import { companyBillingCountry } from '../services/companies';
import { priceDeployment } from '../services/pricing';
import { ok } from './envelope';

export const deploymentRoutes: FastifyPluginAsync = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', async (request) => {
    const body = pricingRequestSchema.parse(request.body);
    const session = body.company ? await request.requireSession() : await request.session();
    const country = body.company && session ? await companyBillingCountry(app.database.db, body.company, session.user.id) : null;
    const attempts = {
      counters: app.counters,
      keys: [`ip:${request.ip}`, ...(session ? [`user:${session.user.id}`] : [])],
      limit: { max: app.config.DISCOUNT_CHECKS_PER_HOUR, windowMinutes: 60 },
    };
    return ok(await priceDeployment(app.database.db, body, { now: new Date(), country, attempts }));
  });

  const reads = createDeploymentReads({ db: app.database.db, config: app.config });

  // A company's servers, for its members (viewers included): the deployments list.
  app.get('/deployments', async (request) => {
    const { user } = await request.requireSession();
    const { company, project } = deploymentListQuerySchema.parse(request.query);
    return ok(await reads.list(user.id, company, project || undefined));
  });

  // One server with its subscription: the wizard's edit mode starts from it.
  app.get('/deployments/:id/populated', async (request) => {
    const { user } = await request.requireSession();
    const { id } = deploymentParamsSchema.parse(request.params);
    return ok(await reads.get(user.id, id));
  });
};
