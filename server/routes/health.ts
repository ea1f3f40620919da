import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors';
import { ok, replies } from './envelope';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { tags: ['health'], response: replies(z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) })) } }, async (request) => {
    try {
      await app.database.ping();
    } catch (err) {
      request.log.error({ err }, 'database ping failed');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    return ok({ status: 'ok' as const, database: app.database.kind });
  });
};
