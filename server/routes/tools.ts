import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appProfileReviewAnswerSchema, appProfileReviewSchema } from '../../src/domain/tools/schemas';
import { ok, replies } from './envelope';

/** The tools pages' public calls (SPEC §2 /tools/...). */
export const toolsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Per IP here, per email in the service: a public form that sends mail.
  const perIp = { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };
  app.post('/tools/app-profile-reviews', { ...perIp, schema: { tags: ['tools'], body: appProfileReviewSchema, response: replies(appProfileReviewAnswerSchema, 201) } }, async (request, reply) => {
    const answer = await app.tools.submitReview(null, { ...request.body, ip: request.ip });
    return reply.code(201).send(ok(answer));
  });
};
