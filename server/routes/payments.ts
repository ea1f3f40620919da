import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutSummarySchema, PADDLE_SIGNATURE_HEADER, paymentsClientConfigSchema, standInPayAnswerSchema, standInPaySchema, webhookAnswerSchema } from '../../src/domain/payments/schemas';
import { ok, replies } from './envelope';

const checkoutParams = z.object({ deploymentId: z.string().max(64) });
const tags = ['payments'];
const CHECKOUTS_PER_MINUTE = 30;

/** The checkout and the local checkout stand-in (customer scope). */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments } = app;

  // Opening a checkout may create a transaction at Paddle: admins only (the service), reused, and capped.
  app.get('/payments/checkout/:deploymentId', { config: { rateLimit: { max: CHECKOUTS_PER_MINUTE, timeWindow: 60_000 } }, schema: { tags, params: checkoutParams, response: replies(checkoutSummarySchema) } }, async (request) => {
    const user = request.actor;
    return ok(await payments.checkoutSummary(user, request.params));
  });

  app.post('/payments/checkout/:deploymentId/pay', { schema: { tags, params: checkoutParams, body: standInPaySchema, response: replies(standInPayAnswerSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await payments.standInPay(user, { deploymentId: request.params.deploymentId, card: request.body }));
  });

  // The stand-in's "Pay with Visa •••• 4242": the company's card on file pays, and stays on file as it is.
  app.post('/payments/checkout/:deploymentId/pay-with-card-on-file', { schema: { tags, params: checkoutParams, body: z.object({}).nullish(), response: replies(standInPayAnswerSchema) } }, async (request) => {
    const user = request.actor;
    return ok(await payments.standInPay(user, { deploymentId: request.params.deploymentId, card: 'onFile' }));
  });
};

/** The browser's payment config and the Paddle webhook (public scope: the webhook proves itself by its signature). */
export const paymentPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments } = app;

  app.get('/payments/config', { schema: { tags, response: replies(paymentsClientConfigSchema) } }, async () => ok(payments.clientConfig()));

  // The signature covers the body's exact bytes, so this scope alone keeps JSON as a raw Buffer;
  // the service checks the signature, then parses the event itself.
  await app.register(async (webhook) => {
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post(
      '/payments/paddle/webhook',
      { schema: { tags, body: z.unknown().describe('A Paddle notification, read as raw bytes and checked against Paddle-Signature'), response: replies(webhookAnswerSchema) } },
      async (request) => ok(await payments.receiveWebhook(request.headers[PADDLE_SIGNATURE_HEADER], request.body)),
    );
  });
};
