import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { productSlug } from '../../src/domain/fileNames';
import { currentUserSchema, signUpAnswerSchema } from '../../src/domain/auth/schemas';
import { signUpWithOrderSchema } from '../../src/domain/orders/schemas';
import { pendingConfigurationAnswerSchema } from '../../src/domain/orders/schemas';
import { profileUpdateSchema, userDataExportSchema, userParamsSchema } from '../../src/domain/users/schemas';
import { errorReplies, ok, replies } from './envelope';

const tags = ['users'];

/** The signed-in user's profile and data export (customer scope). */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // Profile update: JSON, or multipart/form-data with the picture in `uploadPicture`.
  app.put(
    '/users/:id',
    {
      schema: { tags, params: userParamsSchema, body: profileUpdateSchema.nullish().describe('JSON, or multipart/form-data with the same fields and the picture file in uploadPicture'), consumes: ['application/json', 'multipart/form-data'], response: replies(currentUserSchema.nullable()) },
    },
    async (request) => {
      const user = request.actor;
      // Who asks first: a refused caller's upload is never read.
      app.users.checkProfileUpdate(user, { id: request.params.id });
      const { fields, file } = await request.readForm('uploadPicture');
      await app.users.updateProfile(user, { id: request.params.id, body: profileUpdateSchema.parse(fields), picture: file });
      return ok(await app.account.me(user));
    },
  );

  // The pre-login order kept at sign-up, so `continue` works on the device that opened the link.
  app.get('/users/me/pending-order', { schema: { tags, response: replies(pendingConfigurationAnswerSchema) } }, async (request) => ok({ configuration: await app.users.pendingOrder(request.actor) }));
  app.delete('/users/me/pending-order', { schema: { tags, response: replies(pendingConfigurationAnswerSchema) } }, async (request) => {
    await app.users.clearPendingOrder(request.actor);
    return ok({ configuration: null });
  });

  // The user's own data as a JSON download named with the date (SPEC §7 Other).
  app.get(
    '/users/:id/export',
    { schema: { tags, params: userParamsSchema, response: { 200: { description: 'A JSON file download', content: { 'application/json': { schema: userDataExportSchema } } }, ...errorReplies } } },
    async (request, reply) => {
      const user = request.actor;
      const data = await app.users.exportData(user, { id: request.params.id });
      const file = `${productSlug(app.config.PRODUCT_NAME)}-data-${data.exportedAt.slice(0, 10)}.json`;
      // Sent as text, pretty-printed for the reader of the file.
      return (reply as FastifyReply).header('content-disposition', `attachment; filename="${file}"`).type('application/json; charset=utf-8').send(JSON.stringify(data, null, 2));
    },
  );
};

/** Sign-up (public scope). */
export const userPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  // Sign-up: the same answer whether or not the address is taken; the mailed link signs in.
  app.post(
    '/users',
    { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } }, schema: { tags, body: signUpWithOrderSchema, response: replies(signUpAnswerSchema, 201) } },
    async (request, reply) => {
      const body = request.body;
      await app.counters.hit(`mail:signup:${body.email}`, { max: app.config.AUTH_ACCOUNT_LIMIT_PER_15_MINUTES, windowMinutes: 15 });
      await app.account.signUp(body);
      return reply.status(201).send(ok({ email: body.email }));
    },
  );
};
