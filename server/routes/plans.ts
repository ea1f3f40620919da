import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { configurablesSchema, planSchema } from '../../src/domain/schemas/plans';
import { signedIn } from '../plugins/session';
import { ok, replies } from './envelope';

const providerParams = z.object({ providerCode: z.string().min(1).max(40) });
const providerQuery = z.object({ providerCode: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40, 'validation.invalid') });
const tags = ['plans'];

export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/plans/public', { schema: { tags, response: replies(z.array(planSchema)) } }, async () => ok(await app.catalogue.publicPlans()));

  app.get('/plans/configurables/public/:providerCode', { schema: { tags, params: providerParams, response: replies(configurablesSchema) } }, async (request) => {
    return ok(await app.catalogue.configurables({ providerCode: request.params.providerCode }));
  });

  // The signed-in wizard's copy of the same catalogue (SPEC §7).
  app.get('/plans/configurables', { preValidation: signedIn, schema: { tags, querystring: providerQuery, response: replies(configurablesSchema) } }, async (request) => {
    return ok(await app.catalogue.configurables({ providerCode: request.query.providerCode }));
  });
};
