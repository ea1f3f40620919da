import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { passkeyIdParamsSchema, passkeyOptionsSchema, passkeySchema, registerPasskeySchema } from '../../src/domain/auth/passkeys';
import { noPayload, ok, replies } from './envelope';

/**
 * Passkeys of the signed-in user (customer scope): list, register, remove. The sign-in itself is `POST /auth/passkeys/signin` in routes/auth.ts, which owns the
 * session cookies.
 */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passkeys, config } = app;
  const tags = ['auth'];
  const perIp = { config: { rateLimit: { max: config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };
  // The sign-in page asks for options as it opens (the email field's passkey autofill).
  const perIpRelaxed = { config: { rateLimit: { max: 120, timeWindow: 60_000 } } };
  const noBody = z.object({}).loose().nullish().describe('No body');

  app.get('/auth/passkeys', { ...perIpRelaxed, schema: { tags, response: replies(z.array(passkeySchema)) } }, async (request) => {
    return ok(await passkeys.list(request.actorSession));
  });

  app.post('/auth/passkeys/options', { ...perIp, schema: { tags, body: noBody, response: replies(passkeyOptionsSchema) } }, async (request) => {
    return ok(await passkeys.registrationOptions(request.actorSession));
  });

  app.post('/auth/passkeys', { ...perIp, schema: { tags, body: registerPasskeySchema, response: replies(passkeySchema, 201) } }, async (request, reply) => {
    const created = await passkeys.register(request.actorSession, request.body);
    return reply.status(201).send(ok(created));
  });

  app.delete('/auth/passkeys/:id', { ...perIp, schema: { tags, params: passkeyIdParamsSchema, response: replies(noPayload) } }, async (request) => {
    await passkeys.remove(request.actorSession, request.params.id);
    return ok(null);
  });
};

/** The options of a passkey sign-in ceremony (public scope). */
export const passkeyPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passkeys } = app;
  const tags = ['auth'];
  // The sign-in page asks for options as it opens (the email field's passkey autofill).
  const perIpRelaxed = { config: { rateLimit: { max: 120, timeWindow: 60_000 } } };
  const noBody = z.object({}).loose().nullish().describe('No body');
  app.post('/auth/passkeys/signin/options', { ...perIpRelaxed, schema: { tags, body: noBody, response: replies(passkeyOptionsSchema) } }, async () => {
    return ok(await passkeys.signInOptions());
  });
};
