import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deploymentDtoSchema, deploymentListQuerySchema } from '../../src/domain/deployments';
import { deploymentParamsSchema } from '../../src/domain/orders';
import { pricingAnswerSchema, pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { signedIn } from '../plugins/session';
import { createDeploymentReads } from '../services/deploymentReads';
import { ok, replies } from './envelope';

const tags = ['deployments'];

export const deploymentRoutes: FastifyPluginAsyncZod = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', { config: { requestContext: false }, schema: { tags, body: pricingRequestSchema, response: replies(pricingAnswerSchema) } }, async (request) => {
    // Reads only (never audits), and most callers are visitors without a session cookie.
    const session = request.body.company ? await request.requireSession() : request.sessionToken() ? await request.session() : null;
    return ok(await app.pricing.price(session?.user ?? null, { order: request.body, ip: request.ip }));
  });

  const reads = createDeploymentReads({ db: app.database.db, config: app.config });

  // A company's servers, for its members (viewers included): the deployments list.
  app.get('/deployments', { preValidation: signedIn, schema: { tags, querystring: deploymentListQuerySchema, response: replies(z.array(deploymentDtoSchema)) } }, async (request) => {
    const { user } = await request.requireSession();
    return ok(await reads.list(user.id, request.query.company, request.query.project || undefined));
  });

  // One server with its subscription: the wizard's edit mode starts from it.
  app.get('/deployments/:id/populated', { preValidation: signedIn, schema: { tags, params: deploymentParamsSchema, response: replies(deploymentDtoSchema) } }, async (request) => {
    const { user } = await request.requireSession();
    return ok(await reads.get(user.id, request.params.id));
  });
};
