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
} from '../../src/domain/orders';
import { cardUpdateAnswerSchema, companyBillingSchema, receiptSchema, standInPaySchema } from '../../src/domain/payments';
import { z } from 'zod';
import { signedIn } from '../plugins/session';
import { ok, replies } from './envelope';
import { paymentRoutes } from './payments';

const tags = ['deployments'];
const withSummary = (query: { addProvisionSummary?: string }) => ['1', 'true'].includes(query.addProvisionSummary ?? '');

/** Ordering (SPEC §7 Deployments), company billing reads and, in their own scope, payments. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { orders, billing, payments } = app;

  // Idempotency-Key required: two tabs double-clicking "Create" make one server.
  app.post(
    '/deployments',
    { preValidation: signedIn, schema: { tags, querystring: addProvisionSummaryQuerySchema, body: createDeploymentSchema, response: replies(deploymentOrderAnswerSchema, 201) } },
    async (request, reply) => {
      const { user } = await request.requireSession();
      const answer = await orders.create(user, request.body, request.headers[IDEMPOTENCY_HEADER], { ip: request.ip, withSummary: withSummary(request.query) });
      if (answer.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
      return reply.status(201).send(ok(answer.body));
    },
  );

  app.put(
    '/deployments/:id',
    { preValidation: signedIn, schema: { tags, params: deploymentParamsSchema, querystring: addProvisionSummaryQuerySchema, body: orderChangeSchema, response: replies(deploymentOrderAnswerSchema) } },
    async (request) => {
      const { user } = await request.requireSession();
      return ok(await orders.update(user, request.params.id, request.body, { ip: request.ip, withSummary: withSummary(request.query) }));
    },
  );

  // Open to visitors like /deployments/pricing: the pre-login wizard shows the cost too.
  app.post('/deployments/generate-preview', { schema: { tags, body: previewRequestSchema, response: replies(orderPreviewSchema) } }, async (request) => {
    const session = request.body.company ? await request.requireSession() : await request.session();
    return ok(await orders.preview(session?.user ?? null, request.body, request.ip));
  });

  app.post('/deployments/generate-review', { preValidation: signedIn, schema: { tags, body: reviewRequestSchema, response: replies(orderReviewSchema) } }, async (request) => {
    const { user } = await request.requireSession();
    const { _id, ...change } = request.body;
    return ok(await orders.review(user, _id, change, request.ip));
  });

  app.get('/deployments/pastdue/:company', { preValidation: signedIn, schema: { tags, params: companyParamsSchema, response: replies(z.array(pastDueDeploymentSchema)) } }, async (request) => {
    const { user } = await request.requireSession();
    return ok(await billing.pastDue(user.id, request.params.company));
  });

  app.get('/companies/:id/billing', { preValidation: signedIn, schema: { tags: ['billing'], params: deploymentParamsSchema, response: replies(companyBillingSchema) } }, async (request) => {
    const { user } = await request.requireSession();
    return ok(await billing.companyBilling(user.id, request.params.id));
  });

  // "Update card" at any time (stand-in; with Paddle its checkout updates the card).
  app.post('/companies/:id/billing/card', { preValidation: signedIn, schema: { tags: ['billing'], params: deploymentParamsSchema, body: standInPaySchema, response: replies(cardUpdateAnswerSchema) } }, async (request) => {
    const { user } = await request.requireSession();
    return ok(await billing.updateCard(user, { companyId: request.params.id, card: request.body }));
  });

  // A JSON receipt, downloaded as a file.
  app.get('/companies/:id/transactions/:txId/receipt', { preValidation: signedIn, schema: { tags: ['billing'], params: receiptParamsSchema, response: replies(receiptSchema) } }, async (request, reply) => {
    const { user } = await request.requireSession();
    const { fileName, receipt } = await billing.receipt(user.id, request.params.id, request.params.txId);
    return reply.header('content-disposition', `attachment; filename="${fileName}"`).send(ok(receipt));
  });

  await app.register(paymentRoutes(payments));
};
