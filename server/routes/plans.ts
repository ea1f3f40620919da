import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { encodeOnce, sendEncoded } from '../http/cached';
import { getConfigurables } from '../services/configurables';
import { cachedCatalogue, listPublicPlans } from '../services/plans';
import { ok } from './envelope';

const providerParams = z.object({ providerCode: z.string().min(1).max(40) });
const providerQuery = z.object({ providerCode: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40, 'validation.invalid') });

const JSON_TYPE = 'application/json; charset=utf-8';
// The public catalogue is the same for everyone: browsers and CDNs may keep it a minute and serve
// it stale while they revalidate (ETag, 304).
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';

export const planRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  // Serialised and compressed once per catalogue change, not once per request.
  const encoded = (key: string, load: () => Promise<unknown>) => cachedCatalogue(db, `body:${key}`, async () => encodeOnce(Buffer.from(JSON.stringify(ok(await load())))));
  const configurablesBody = (providerCode: string) => encoded(`configurables:${providerCode}`, () => getConfigurables(db, providerCode));

  // These answers are compressed once, when cached: no compression hooks per request.
  const cached = { compress: false } as const;
  app.get('/plans/public', cached, async (request, reply) => sendEncoded(request, reply, await encoded('publicPlans', () => listPublicPlans(db)), JSON_TYPE, PUBLIC_CACHE));

  app.get('/plans/configurables/public/:providerCode', cached, async (request, reply) => {
    const { providerCode } = providerParams.parse(request.params);
    return sendEncoded(request, reply, await configurablesBody(providerCode), JSON_TYPE, PUBLIC_CACHE);
  });

  // The signed-in wizard's copy of the same catalogue (SPEC §7).
  app.get('/plans/configurables', cached, async (request, reply) => {
    await request.requireSession();
    const { providerCode } = providerQuery.parse(request.query);
    return sendEncoded(request, reply, await configurablesBody(providerCode), JSON_TYPE, 'private, no-cache');
  });
};
