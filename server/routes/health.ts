import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors';
import { ok, replies } from './envelope';

const healthSchema = replies(z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }));

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Liveness: the process answers. Built once; a load balancer may call it many times a second.
  // Answers this small are never compressed: skip the compression hooks altogether.
  const alive = ok({ status: 'ok' as const, database: app.health.kind });
  app.get('/health', { compress: false, config: { requestContext: false }, schema: { tags: ['health'], response: healthSchema } }, async () => alive);

  // Readiness: the database answers too.
  app.get('/health/ready', { compress: false, config: { requestContext: false }, schema: { tags: ['health'], response: healthSchema } }, async (request) => {
    try {
      await app.health.ping();
    } catch (err) {
      request.log.error({ err }, 'database ping failed');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    return alive;
  });
};
