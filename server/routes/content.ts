import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { CONTENT_BLOCKS } from '../../src/domain/content';
import { ok } from './envelope';

const params = z.object({ block: z.enum(CONTENT_BLOCKS) });

export const contentRoutes: FastifyPluginAsync = async (app) => {
  app.get('/content/:block', async (request, reply) => {
    const { block } = params.parse(request.params);
    const data = await app.content.getContent(block);
    // Browsers may reuse a block for a minute; the server caches the service's answer longer.
    reply.header('cache-control', 'public, max-age=60');
    return ok(data);
  });
};
