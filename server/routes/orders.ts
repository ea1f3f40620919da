import type { FastifyPluginAsync } from 'fastify';
import { createI18n } from '../../i18n';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../src/domain/idempotency';
import {
  addProvisionSummaryQuerySchema,
  companyParamsSchema,
  createDeploymentSchema,
  deploymentParamsSchema,
  orderChangeSchema,
  previewRequestSchema,
  receiptParamsSchema,
  reviewRequestSchema,
} from '../../src/domain/orders';
import { createBillingService } from '../services/billing';
import { createOrderService } from '../services/orders';
import { createPaymentsService } from '../services/payments';
import { ok } from './envelope';
import { paymentRoutes } from './payments';

const withSummary = (query: unknown) => ['1', 'true'].includes(addProvisionSummaryQuerySchema.parse(query).addProvisionSummary ?? '');

/** Ordering (SPEC §7 Deployments), company billing reads and, in their own scope, payments. */
export const orderRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  const { t } = createI18n(app.config.PRODUCT_NAME);
  const payments = createPaymentsService({
    db,
    config: app.config,
    counters: app.counters,
    t,
    log: app.log,
    // The stand-in's notifications take the route Paddle's take: signature check and all.
    deliver: (rawBody, signature) =>
      app.inject({ method: 'POST', url: `${app.prefix}/payments/paddle/webhook`, payload: rawBody, headers: { 'content-type': 'application/json', 'paddle-signature': signature } }),
  });
  const orders = createOrderService({ db, config: app.config, counters: app.counters, gateway: payments.gateway });
  const billing = createBillingService({ db, config: app.config });

  // Idempotency-Key required: two tabs double-clicking "Create" make one server.
  app.post('/deployments', async (request, reply) => {
    const { user } = await request.requireSession();
    const summary = withSummary(request.query);
    const body = createDeploymentSchema.parse(request.body);
    const answer = await orders.create(user, body, request.headers[IDEMPOTENCY_HEADER], { ip: request.ip, withSummary: summary });
    if (answer.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
    return reply.status(answer.status).send(ok(answer.body));
  });

  app.put('/deployments/:id', async (request) => {
    const { user } = await request.requireSession();
    const { id } = deploymentParamsSchema.parse(request.params);
    const summary = withSummary(request.query);
    return ok(await orders.update(user, id, orderChangeSchema.parse(request.body), { ip: request.ip, withSummary: summary }));
  });

  // Open to visitors like /deployments/pricing: the pre-login wizard shows the cost too.
  app.post('/deployments/generate-preview', async (request) => {
    const body = previewRequestSchema.parse(request.body);
    const session = body.company ? await request.requireSession() : await request.session();
    return ok(await orders.preview(session?.user ?? null, body, request.ip));
  });

  app.post('/deployments/generate-review', async (request) => {
    const { user } = await request.requireSession();
    const { _id, ...change } = reviewRequestSchema.parse(request.body);
    return ok(await orders.review(user, _id, change, request.ip));
  });

  app.get('/deployments/pastdue/:company', async (request) => {
    const { user } = await request.requireSession();
    const { company } = companyParamsSchema.parse(request.params);
    return ok(await billing.pastDue(user.id, company));
  });

  app.get('/companies/:id/billing', async (request) => {
    const { user } = await request.requireSession();
    const { id } = deploymentParamsSchema.parse(request.params);
    return ok(await billing.companyBilling(user.id, id));
  });

  app.get('/companies/:id/transactions/:txId/receipt', async (request, reply) => {
    const { user } = await request.requireSession();
    const { id, txId } = receiptParamsSchema.parse(request.params);
    const { fileName, receipt } = await billing.receipt(user.id, id, txId);
    return reply.header('content-disposition', `attachment; filename="${fileName}"`).send(ok(receipt));
  });

  await app.register(paymentRoutes(payments));
};
