import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenBodySchema } from '../../src/domain/auth/schemas';
import { createCompanyQuerySchema, createCompanySchema, deleteCompanySchema, invitationSchema, invitedSignUpSchema, updateCompanySchema } from '../../src/domain/companies/schemas';
import { companyDeletionSchema, companyParamsSchema, companySchema, invitationCheckSchema, invitationParamsSchema, memberParamsSchema, teamSchema } from '../../src/domain/companies/answers';
import { planSchema } from '../../src/domain/plans/schemas';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../src/domain/idempotency';
import { noPayload, ok, replies } from './envelope';

const tags = ['companies'];
/** Either form of accepting an invitation; the handler tells them apart (see below). */
const invitedBodySchema = z.looseObject({ token: z.unknown() }).describe('The token alone (a signed-in invitee), or the invited sign-up form (token, names, password, designation, agreements)');

/** Company, team and invitation routes (SPEC §7 Companies, customer scope); membership is checked in the service. */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { companies } = app;
  const { idempotency } = app;

  // A retried request with the same Idempotency-Key gets the first answer, not a second company.
  app.post('/companies', { schema: { tags, querystring: createCompanyQuerySchema, body: createCompanySchema, response: replies(companySchema, 201) } }, async (request, reply) => {
    const user = request.actor;
    const { query, body } = request;
    const answer = await idempotency.run(
      { userId: user.id, key: request.headers[IDEMPOTENCY_HEADER], request: 'POST /companies', payload: { body, query } },
      async (tx) => ({ status: 201, body: ok(await companies.createCompany(user, { body, designation: query.designation }, tx)) }),
    );
    if (answer.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    return reply.status(answer.status as 201).send(answer.body as ReturnType<typeof ok<z.infer<typeof companySchema>>>);
  });

  app.get('/companies/:id', { schema: { tags, params: companyParamsSchema, response: replies(companySchema) } }, async (request) => {
    const user = request.actor;
    return ok(await companies.getCompany(user, { companyId: request.params.id }));
  });

  // JSON, or multipart/form-data with the logo in `uploadLogo` (read by readForm, then checked here).
  app.put(
    '/companies/:id',
    { schema: { tags, params: companyParamsSchema, body: updateCompanySchema.nullish().describe('JSON, or multipart/form-data with the same fields and the logo file in uploadLogo'), consumes: ['application/json', 'multipart/form-data'], response: replies(companySchema) } },
    async (request) => {
      const user = request.actor;
      // Who asks first: a refused caller's upload is never read.
      await companies.checkCompanyUpdate(user, { companyId: request.params.id });
      const { fields, file } = await request.readForm('uploadLogo');
      return ok(await companies.updateCompany(user, { companyId: request.params.id, body: updateCompanySchema.parse(fields), logo: file }));
    },
  );

  // Without a code the call mails one (202); with it, the company is deleted.
  app.delete(
    '/companies/:id',
    { schema: { tags, params: companyParamsSchema, body: deleteCompanySchema.nullish(), response: { ...replies(companyDeletionSchema), ...replies(companyDeletionSchema, 202) } } },
    async (request, reply) => {
      const user = request.actor;
      const result = await companies.deleteCompany(user, { companyId: request.params.id, code: request.body?.verificationCode });
      return result === 'codeSent' ? reply.status(202).send(ok({ codeSent: true as const })) : ok({ deleted: true as const });
    },
  );

  app.get('/companies/:id/users', { schema: { tags, params: companyParamsSchema, response: replies(teamSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await companies.listTeam(user, { companyId: request.params.id }));
  });

  app.post('/companies/:id/invitations', { schema: { tags, params: companyParamsSchema, body: invitationSchema, response: replies(noPayload, 201) } }, async (request, reply) => {
    const user = request.actor;
    await companies.invite(user, { companyId: request.params.id, body: request.body });
    return reply.status(201).send(ok(null));
  });

  app.delete('/companies/:id/users/:userId', { schema: { tags, params: memberParamsSchema, response: replies(noPayload) } }, async (request) => {
    const user = request.actor;
    await companies.removeMember(user, { companyId: request.params.id, memberId: request.params.userId });
    return ok(null);
  });

  app.delete('/companies/:id/invitations/:invitationId', { schema: { tags, params: invitationParamsSchema, response: replies(noPayload) } }, async (request) => {
    const user = request.actor;
    await companies.cancelInvitation(user, { companyId: request.params.id, invitationId: request.params.invitationId });
    return ok(null);
  });

  app.get('/plangroups/company/:id/plans', { schema: { tags: ['plans'], params: companyParamsSchema, response: replies(z.array(planSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await app.catalogue.companyPlans(user, { companyId: request.params.id }));
  });
};

/** Answering an invitation (public scope): the invitee may have no account yet. */
export const companyPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { companies } = app;
  const limited = { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };

  app.post('/companies/users/check-invited', { ...limited, schema: { tags, body: tokenBodySchema, response: replies(invitationCheckSchema) } }, async (request) => {
    return ok(await companies.checkInvitation(request.body));
  });

  // A signed-in invitee joins with the token alone; otherwise the form makes (or claims) the account.
  app.post('/companies/users/invited', { ...limited, schema: { tags, body: invitedBodySchema, response: replies(noPayload, 201) } }, async (request, reply) => {
    const session = await request.session();
    const { token } = tokenBodySchema.parse(request.body);
    const isForm = 'password' in request.body;
    const signUp = isForm || !session ? invitedSignUpSchema.parse(request.body) : null;
    await companies.acceptInvitation(session?.user ?? null, { token, signUp });
    return reply.status(201).send(ok(null));
  });
};
