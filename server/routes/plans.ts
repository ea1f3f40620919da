import type { FastifyPluginAsync } from 'fastify';
import { listPublicPlans } from '../services/plans';
import { ok } from './envelope';

export const planRoutes: FastifyPluginAsync = async (app) => {
  app.get('/plans/public', async () => ok(await listPublicPlans(app.database.db)));
};
