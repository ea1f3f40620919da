import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { configurablesSchema, planSchema } from '../../src/domain/plans/schemas';
import { encodeOnce, sendEncoded } from '../http/cached';
import { ok, replies } from './envelope';

const providerParams = z.object({ providerCode: z.string().min(1).max(40) });
const providerQuery = z.object({ providerCode: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40, 'validation.invalid') });
const tags = ['plans'];

const JSON_TYPE = 'application/json; charset=utf-8';
// The public catalogue is the same for everyone: browsers and CDNs may keep it a minute and serve
// it stale while they revalidate (ETag, 304).
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';

/**
 * The catalogue routes answer bytes serialised and compressed once per catalogue change (the
 * schemas still document them), so no compression hooks run per request either.
 */
const catalogueBodies = (app: FastifyInstance) => {
  const encoded = (key: string, load: () => Promise<unknown>) => app.catalogue.cached(`body:${key}`, async () => encodeOnce(Buffer.from(JSON.stringify(ok(await load())))));
  const configurablesBody = (providerCode: string) => encoded(`configurables:${providerCode}`, () => app.catalogue.configurables({ providerCode }));
  return { encoded, configurablesBody };
};

/** The public catalogue (public scope). */
export const planPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { encoded, configurablesBody } = catalogueBodies(app);

  app.get('/plans/public', { compress: false, config: { requestContext: false }, schema: { tags, response: replies(z.array(planSchema)) } }, async (request, reply) =>
    sendEncoded(request, reply, await encoded('publicPlans', () => app.catalogue.publicPlans()), JSON_TYPE, PUBLIC_CACHE),
  );

  app.get('/plans/configurables/public/:providerCode', { compress: false, config: { requestContext: false }, schema: { tags, params: providerParams, response: replies(configurablesSchema) } }, async (request, reply) =>
    sendEncoded(request, reply, await configurablesBody(request.params.providerCode), JSON_TYPE, PUBLIC_CACHE),
  );
};

/** The signed-in wizard's copy of the same catalogue (customer scope, SPEC §7). */
export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const { configurablesBody } = catalogueBodies(app);

  app.get('/plans/configurables', { compress: false, schema: { tags, querystring: providerQuery, response: replies(configurablesSchema) } }, async (request, reply) =>
    sendEncoded(request, reply, await configurablesBody(request.query.providerCode), JSON_TYPE, 'private, no-cache'),
  );
};
