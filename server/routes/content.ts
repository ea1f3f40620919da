import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONTENT_BLOCKS } from '../../src/domain/content/schemas';
import { ok, replies } from './envelope';

const params = z.object({ block: z.enum(CONTENT_BLOCKS) });

export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  // A block's shape is the content service's (the prelogin block is checked, see services/content.ts).
  app.get('/content/:block', { schema: { tags: ['content'], params, response: replies(z.unknown().describe('The content block as the content service defines it')) } }, async (request, reply) => {
    const data = await app.content.getContent(request.params.block);
    // Browsers may reuse a block for a minute; the server caches the service's answer longer.
    reply.header('cache-control', 'public, max-age=60');
    return ok(data);
  });
};
