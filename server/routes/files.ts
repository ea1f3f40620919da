import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_IMAGE_TYPES } from '../../src/domain/constants';
import { AppError } from '../errors';
import { errorReplies } from './envelope';

const image = { schema: z.string().meta({ format: 'binary' }).describe('The image bytes') };

/**
 * Uploaded pictures and logos. Ids are random UUIDs and a file never changes, so answers are
 * cached for good; the type was sniffed at upload and the browser is told not to guess another.
 */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/files/:id',
    { schema: { tags: ['files'], params: z.object({ id: z.string().max(64) }), response: { 200: { description: 'The uploaded image', content: Object.fromEntries(UPLOAD_IMAGE_TYPES.map((type) => [type, image])) }, ...errorReplies } } },
    async (request, reply) => {
      const file = await app.files.read({ id: request.params.id });
      if (!file) throw new AppError('NOT_FOUND');
      // The bytes are sent as they are: the typed reply knows only JSON answers.
      return (reply as FastifyReply)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .type(file.contentType)
        .send(file.data);
    },
  );
};
