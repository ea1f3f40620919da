import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors';
import { ok } from './envelope';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  // Liveness: the process answers. Built once; a load balancer may call it many times a second.
  // Answers this small are never compressed: skip the compression hooks altogether.
  const alive = ok({ status: 'ok', database: app.database.kind });
  app.get('/health', { compress: false }, async () => alive);

  // Readiness: the database answers too.
  app.get('/health/ready', { compress: false }, async (request) => {
    try {
      await app.database.ping();
    } catch (err) {
      request.log.error({ err }, 'database ping failed');
      throw new AppError('SERVICE_UNAVAILABLE', 503);
    }
    return ok({ status: 'ok', database: app.database.kind });
  });
};
