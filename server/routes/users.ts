import type { FastifyPluginAsync } from 'fastify';
import { signUpSchema } from '../../src/domain/schemas/auth';
import { ok } from './envelope';

export const userRoutes: FastifyPluginAsync = async (app) => {
  // Sign-up: creates the account, mails the verification link and signs the new user in.
  app.post('/users', { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } }, async (request, reply) => {
    const body = signUpSchema.parse(request.body);
    const signedIn = await app.auth.signUp(body, { ip: request.ip, userAgent: request.headers['user-agent'] });
    reply.setSessionCookie(signedIn.token);
    return reply.status(201).send(ok(signedIn.user));
  });
};
