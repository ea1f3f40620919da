import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { getConfigurables } from '../services/configurables';
import { listPublicPlans } from '../services/plans';
import { ok } from './envelope';

const providerParams = z.object({ providerCode: z.string().min(1).max(40) });

export const planRoutes: FastifyPluginAsync = async (app) => {
  app.get('/plans/public', async () => ok(await listPublicPlans(app.database.db)));

  app.get('/plans/configurables/public/:providerCode', async (request) => {
    const { providerCode } = providerParams.parse(request.params);
    return ok(await getConfigurables(app.database.db, providerCode));
  });
};
