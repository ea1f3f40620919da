import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { getConfigurables } from '../services/configurables';
import { listPublicPlans } from '../services/plans';
import { ok } from './envelope';

const providerParams = z.object({ providerCode: z.string().min(1).max(40) });
const providerQuery = z.object({ providerCode: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(40, 'validation.invalid') });

export const planRoutes: FastifyPluginAsync = async (app) => {
  app.get('/plans/public', async () => ok(await listPublicPlans(app.database.db)));

  app.get('/plans/configurables/public/:providerCode', async (request) => {
    const { providerCode } = providerParams.parse(request.params);
    return ok(await getConfigurables(app.database.db, providerCode));
  });

  // The signed-in wizard's copy of the same catalogue (SPEC §7).
  app.get('/plans/configurables', async (request) => {
    await request.requireSession();
    const { providerCode } = providerQuery.parse(request.query);
    return ok(await getConfigurables(app.database.db, providerCode));
  });
};
