import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pricingAnswerSchema, pricingRequestSchema } from '../../src/domain/schemas/pricing';
import { ok, replies } from './envelope';

export const deploymentRoutes: FastifyPluginAsyncZod = async (app) => {
  // Open to visitors: the pre-login wizard prices orders too, before tax. Naming a company (a
  // member's order) adds the tax of its billing country.
  app.post('/deployments/pricing', { schema: { tags: ['deployments'], body: pricingRequestSchema, response: replies(pricingAnswerSchema) } }, async (request) => {
    const session = request.body.company ? await request.requireSession() : await request.session();
    return ok(await app.pricing.price(session?.user ?? null, { order: request.body, ip: request.ip }));
  });
};
