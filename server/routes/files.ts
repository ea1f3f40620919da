import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors';
import { UUID } from '../services/plans';
import { readFile } from '../services/files';

/**
 * Uploaded pictures and logos. Ids are random UUIDs and a file never changes, so answers are
 * cached for good; the type was sniffed at upload and the browser is told not to guess another.
 */
export const fileRoutes: FastifyPluginAsync = async (app) => {
  app.get('/files/:id', async (request, reply) => {
    const { id } = z.object({ id: z.string().max(64) }).parse(request.params);
    const file = UUID.test(id) ? await readFile(app.database.db, id) : null;
    if (!file) throw new AppError('NOT_FOUND');
    return reply
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .type(file.contentType)
      .send(file.data);
  });
};
