import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../src/domain/idempotency';
import {
  addProvisionSummaryQuerySchema,
  companyParamsSchema,
  createDeploymentSchema,
  deploymentOrderAnswerSchema,
  deploymentParamsSchema,
  orderChangeSchema,
  orderPreviewSchema,
  orderReviewSchema,
  pastDueDeploymentSchema,
  previewRequestSchema,
  receiptParamsSchema,
  reviewRequestSchema,
} from '../../src/domain/orders/schemas';
import { cardCheckoutAnswerSchema, cardCheckoutBodySchema, cardUpdateAnswerSchema, companyBillingSchema, standInPaySchema } from '../../src/domain/payments/schemas';
import { DOCUMENT_CSP, PRINT_SCRIPT } from '../services/invoiceHtml';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { errorReplies, ok, replies } from './envelope';

const tags = ['deployments'];
const withSummary = (query: { addProvisionSummary?: string }) => ['1', 'true'].includes(query.addProvisionSummary ?? '');
/** Invoice openings per user and minute: each may cost a call to Paddle's API (links are reused, see invoiceLinks.ts). */
const INVOICES_PER_USER_PER_MINUTE = 60;

/** Ordering (SPEC §7 Deployments) and company billing reads (customer scope). */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { orders, billing } = app;

  // Idempotency-Key required: two tabs double-clicking "Create" make one server.
  app.post(
    '/deployments',
    { schema: { tags, querystring: addProvisionSummaryQuerySchema, body: createDeploymentSchema, response: replies(deploymentOrderAnswerSchema, 201) } },
    async (request, reply) => {
      const user = request.actor;
      const answer = await orders.create(user, request.body, request.headers[IDEMPOTENCY_HEADER], { ip: request.ip, withSummary: withSummary(request.query) });
      if (answer.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
      return reply.status(201).send(ok(answer.body));
    },
  );

  app.put(
    '/deployments/:id',
    { schema: { tags, params: deploymentParamsSchema, querystring: addProvisionSummaryQuerySchema, body: orderChangeSchema, response: replies(deploymentOrderAnswerSchema) } },
    async (request) => {
      const user = request.actor;
      return ok(await orders.update(user, request.params.id, request.body, { ip: request.ip, withSummary: withSummary(request.query) }));
    },
  );

  app.post('/deployments/generate-review', { schema: { tags, body: reviewRequestSchema, response: replies(orderReviewSchema) } }, async (request) => {
    const user = request.actor;
    const { _id, ...change } = request.body;
    return ok(await orders.review(user, _id, change, request.ip));
  });

  app.get('/deployments/pastdue/:company', { schema: { tags, params: companyParamsSchema, response: replies(z.array(pastDueDeploymentSchema)) } }, async (request) => {
    const user = request.actor;
    return ok(await billing.pastDue(user, { companyId: request.params.company }));
  });

  app.get('/companies/:id/billing', { schema: { tags: ['billing'], params: deploymentParamsSchema, response: replies(companyBillingSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await billing.companyBilling(user, { companyId: request.params.id }));
  });

  // "Update card" at any time (stand-in; with Paddle its checkout updates the card).
  app.post('/companies/:id/billing/card', { schema: { tags: ['billing'], params: deploymentParamsSchema, body: standInPaySchema, response: replies(cardUpdateAnswerSchema) } }, async (request) => {
    return ok(await billing.updateCard(request.actor, { companyId: request.params.id, card: request.body }));
  });

  // "Update card" with Paddle: the transaction its checkout opens (404 with the stand-in).
  app.post('/companies/:id/billing/card/checkout', { schema: { tags: ['billing'], params: deploymentParamsSchema, body: cardCheckoutBodySchema, response: replies(cardCheckoutAnswerSchema) } }, async (request) => {
    return ok(await billing.cardCheckout(request.actor, { companyId: request.params.id }));
  });

  // The payment's receipt: a printable page like the invoice ("Download PDF" prints it to PDF).
  app.get(
    '/companies/:id/transactions/:txId/receipt',
    { schema: { tags: ['billing'], params: receiptParamsSchema, response: { 200: { description: 'The printable receipt', content: { 'text/html': { schema: z.string() } } }, ...errorReplies } } },
    async (request, reply) => {
      const { html } = await billing.receipt(request.actor, { companyId: request.params.id, transactionId: request.params.txId });
      return sendDocument(reply as FastifyReply, html);
    },
  );

  // The invoice a finance team files: our printable page, or a redirect to Paddle's PDF.
  app.get(
    '/companies/:id/transactions/:txId/invoice',
    {
      // Counted per signed-in user (after the session hook has named them), not per address.
      config: { rateLimit: { max: INVOICES_PER_USER_PER_MINUTE, timeWindow: 60_000, hook: 'preHandler', keyGenerator: (request) => `user:${request.actor.id}` } },
      schema: {
        tags: ['billing'],
        params: receiptParamsSchema,
        response: { 200: { description: 'The printable invoice', content: { 'text/html': { schema: z.string() } } }, 302: { description: "Paddle's invoice PDF", content: { 'text/plain': { schema: z.string() } } }, ...errorReplies },
      },
    },
    async (request, reply) => {
      const invoice = await billing.invoice(request.actor, { companyId: request.params.id, transactionId: request.params.txId });
      // The page is sent as it is: the typed reply knows only JSON answers.
      const raw = reply as FastifyReply;
      raw.header('cache-control', 'private, no-store');
      if ('url' in invoice) return raw.redirect(invoice.url);
      return sendDocument(raw, invoice.html);
    },
  );
};

/**
 * An invoice or receipt page, sent as it is (the typed reply knows only JSON answers). Customer
 * text is escaped, and the page may run no script but our print script (DOCUMENT_CSP).
 */
export function sendDocument(reply: FastifyReply, html: string) {
  return reply.header('cache-control', 'private, no-store').header('content-security-policy', DOCUMENT_CSP).type('text/html; charset=utf-8').send(html);
}

/** The cost of an order before it is made (public scope): the pre-login wizard shows it too. */
export const orderPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { orders } = app;

  // The invoice and receipt pages' one script: "Download PDF" opens the print dialog (Save as PDF).
  app.get('/documents/print.js', { schema: { tags: ['billing'], response: { 200: { description: 'The print script of the invoice and receipt pages', content: { 'text/javascript': { schema: z.string() } } }, ...errorReplies } } }, async (_request, reply) => {
    return (reply as FastifyReply).header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(PRINT_SCRIPT);
  });

  // Open to visitors like /deployments/pricing: the pre-login wizard shows the cost too.
  app.post('/deployments/generate-preview', { schema: { tags, body: previewRequestSchema, response: replies(orderPreviewSchema) } }, async (request) => {
    const session = request.body.company ? await request.requireSession() : await request.session();
    return ok(await orders.preview(session?.user ?? null, request.body, request.ip));
  });
};
