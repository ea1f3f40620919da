import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { tokenBodySchema } from '../../src/domain/schemas/auth';
import { createCompanyQuerySchema, createCompanySchema, deleteCompanySchema, invitationSchema, invitedSignUpSchema, updateCompanySchema } from '../../src/domain/schemas/companies';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../src/domain/idempotency';
import { requireMember } from '../services/companies';
import { createIdempotency } from '../services/idempotency';
import { listCompanyPlans } from '../services/plans';
import { ok } from './envelope';

const companyParams = z.object({ id: z.string().max(64) });
const memberParams = z.object({ id: z.string().max(64), userId: z.string().max(64) });
const invitationParams = z.object({ id: z.string().max(64), invitationId: z.string().max(64) });

/** Company, team and invitation routes (SPEC §7 Companies); membership is checked in the service. */
export const companyRoutes: FastifyPluginAsync = async (app) => {
  const { companies } = app;
  const idempotency = createIdempotency(app.database.db);
  const limited = { config: { rateLimit: { max: app.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };

  // A retried request with the same Idempotency-Key gets the first answer, not a second company.
  app.post('/companies', async (request, reply) => {
    const { user } = await request.requireSession();
    const query = createCompanyQuerySchema.parse(request.query);
    const body = createCompanySchema.parse(request.body);
    const answer = await idempotency.run(
      { userId: user.id, key: request.headers[IDEMPOTENCY_HEADER], request: 'POST /companies', payload: { body, query } },
      async (tx) => ({ status: 201, body: ok(await companies.createCompany(user.id, body, query.designation, tx)) }),
    );
    if (answer.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    return reply.status(answer.status).send(answer.body);
  });

  app.get('/companies/:id', async (request) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    return ok(await companies.getCompany(id, user.id));
  });

  app.put('/companies/:id', async (request) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    // JSON, or multipart with the logo in `uploadLogo`.
    const { fields, file } = await request.readForm('uploadLogo');
    return ok(await companies.updateCompany(id, user.id, updateCompanySchema.parse(fields), file));
  });

  // Without a code the call mails one (202); with it, the company is deleted.
  app.delete('/companies/:id', async (request, reply) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    const { verificationCode } = deleteCompanySchema.parse(request.body ?? {});
    const result = await companies.deleteCompany(id, user, verificationCode);
    return result === 'codeSent' ? reply.status(202).send(ok({ codeSent: true })) : ok({ deleted: true });
  });

  app.get('/companies/:id/users', async (request) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    return ok(await companies.listTeam(id, user.id));
  });

  app.post('/companies/:id/invitations', async (request, reply) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    await companies.invite(id, user, invitationSchema.parse(request.body));
    return reply.status(201).send(ok(null));
  });

  app.delete('/companies/:id/users/:userId', async (request) => {
    const { user } = await request.requireSession();
    const { id, userId } = memberParams.parse(request.params);
    await companies.removeMember(id, user.id, userId);
    return ok(null);
  });

  app.delete('/companies/:id/invitations/:invitationId', async (request) => {
    const { user } = await request.requireSession();
    const { id, invitationId } = invitationParams.parse(request.params);
    await companies.cancelInvitation(id, user.id, invitationId);
    return ok(null);
  });

  app.post('/companies/users/check-invited', limited, async (request) => {
    const { token } = tokenBodySchema.parse(request.body);
    return ok(await companies.checkInvitation(token));
  });

  // A signed-in invitee joins with the token alone; otherwise the form makes (or claims) the account.
  app.post('/companies/users/invited', limited, async (request, reply) => {
    const session = await request.session();
    const { token } = tokenBodySchema.parse(request.body);
    const isForm = typeof request.body === 'object' && request.body !== null && 'password' in request.body;
    const signUp = isForm || !session ? invitedSignUpSchema.parse(request.body) : null;
    await companies.acceptInvitation({ token, signUp }, session?.user.id ?? null);
    return reply.status(201).send(ok(null));
  });

  app.get('/plangroups/company/:id/plans', async (request) => {
    const { user } = await request.requireSession();
    const { id } = companyParams.parse(request.params);
    await requireMember(app.database.db, id, user.id);
    return ok(await listCompanyPlans(app.database.db, id));
  });
};
