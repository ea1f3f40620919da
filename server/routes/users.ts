import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { productSlug } from '../../src/domain/fileNames';
import { signUpSchema } from '../../src/domain/schemas/auth';
import { profileUpdateSchema } from '../../src/domain/schemas/users';
import { exportUserData, updateProfile } from '../services/users';
import { ok } from './envelope';

const userParams = z.object({ id: z.string().max(64) });

export const userRoutes: FastifyPluginAsync = async (app) => {
  // Sign-up: the same answer whether or not the address is taken; the mailed link signs in.
  app.post('/users', { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } }, async (request, reply) => {
    const body = signUpSchema.parse(request.body);
    await app.counters.hit(`mail:signup:${body.email}`, { max: app.config.AUTH_ACCOUNT_LIMIT_PER_15_MINUTES, windowMinutes: 15 });
    await app.auth.signUp(body);
    return reply.status(201).send(ok({ email: body.email }));
  });

  // Profile update: JSON, or multipart with the picture in `uploadPicture`.
  app.put('/users/:id', async (request) => {
    const { user } = await request.requireSession();
    const { id } = userParams.parse(request.params);
    const { fields, file } = await request.readForm('uploadPicture');
    await updateProfile(app.database.db, user, id, profileUpdateSchema.parse(fields), file);
    return ok(await app.auth.me(user.id));
  });

  // The user's own data as a JSON download named with the date (SPEC §7 Other).
  app.get('/users/:id/export', async (request, reply) => {
    const { user } = await request.requireSession();
    const { id } = userParams.parse(request.params);
    const data = await exportUserData(app.database.db, user, id);
    const file = `${productSlug(app.config.PRODUCT_NAME)}-data-${data.exportedAt.slice(0, 10)}.json`;
    return reply.header('content-disposition', `attachment; filename="${file}"`).type('application/json; charset=utf-8').send(JSON.stringify(data, null, 2));
  });
};
