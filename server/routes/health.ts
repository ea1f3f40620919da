import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors';
import { ok } from './envelope';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async (request) => {
    try {
      await app.database.ping();
    } catch (err) {
      request.log.error({ err }, 'database ping failed');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    return ok({ status: 'ok', database: app.database.kind });
  });
};
