import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approveQuoteAnswerSchema, declineQuoteSchema, quoteDtoSchema, quoteOrderSchema, quoteParamsSchema } from '../../src/domain/billing/quotes';
import { companyParamsSchema } from '../../src/domain/companies/answers';
import { errorReplies, ok, replies } from './envelope';
import { sendDocument } from './orders';

const tags = ['billing'];
const limited = { config: { rateLimit: { max: 60, timeWindow: 60_000 } } };

/** Quotes (customer scope): prepared from the wizard, approved or declined under Billing. */
export const quoteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { quotes } = app;

  app.post('/companies/:id/quotes', { ...limited, schema: { tags, params: companyParamsSchema, body: quoteOrderSchema, response: replies(quoteDtoSchema, 201) } }, async (request, reply) => {
    reply.code(201);
    return ok(await quotes.send(request.actor, { companyId: request.params.id, order: request.body, ip: request.ip }));
  });

  app.get('/companies/:id/quotes', { schema: { tags, params: companyParamsSchema, response: replies(z.array(quoteDtoSchema)) } }, async (request) => ok(await quotes.list(request.actor, request.params.id)));

  app.get('/quotes/:id', { schema: { tags, params: quoteParamsSchema, response: replies(quoteDtoSchema) } }, async (request) => ok(await quotes.get(request.actor, request.params.id)));

  // The quote a finance team files: a printable page like the invoice ("Download PDF" prints it).
  app.get(
    '/quotes/:id/document',
    { schema: { tags, params: quoteParamsSchema, response: { 200: { description: 'The printable quote', content: { 'text/html': { schema: z.string() } } }, ...errorReplies } } },
    async (request, reply) => sendDocument(reply as FastifyReply, (await quotes.document(request.actor, request.params.id)).html),
  );

  app.post('/quotes/:id/approve', { ...limited, schema: { tags, params: quoteParamsSchema, body: z.object({}).nullish(), response: replies(approveQuoteAnswerSchema) } }, async (request) =>
    ok(await quotes.approve(request.actor, request.params.id)),
  );

  app.post('/quotes/:id/decline', { ...limited, schema: { tags, params: quoteParamsSchema, body: declineQuoteSchema, response: replies(quoteDtoSchema) } }, async (request) =>
    ok(await quotes.decline(request.actor, request.params.id, request.body.reason)),
  );
};
