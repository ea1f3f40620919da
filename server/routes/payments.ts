import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { PADDLE_SIGNATURE_HEADER, standInPaySchema } from '../../src/domain/payments';
import type { PaymentsService } from '../services/payments';
import { ok } from './envelope';

const checkoutParams = z.object({ deploymentId: z.string().max(64) });

/** Payment routes: the Paddle webhook (raw body), the browser's payment config and the local checkout stand-in. */
export const paymentRoutes =
  (payments: PaymentsService): FastifyPluginAsync =>
  async (app) => {
    app.get('/payments/config', async () => ok(payments.clientConfig()));

    app.get('/payments/checkout/:deploymentId', async (request) => {
      const { user } = await request.requireSession();
      const { deploymentId } = checkoutParams.parse(request.params);
      return ok(await payments.checkoutSummary(user.id, user.email, deploymentId));
    });

    app.post('/payments/checkout/:deploymentId/pay', async (request) => {
      const { user } = await request.requireSession();
      const { deploymentId } = checkoutParams.parse(request.params);
      return ok(await payments.standInPay(user.id, deploymentId, standInPaySchema.parse(request.body)));
    });

    // The signature covers the body's exact bytes, so this scope alone keeps JSON as a raw Buffer.
    await app.register(async (webhook) => {
      webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      webhook.post('/payments/paddle/webhook', async (request) => ok(await payments.receiveWebhook(request.headers[PADDLE_SIGNATURE_HEADER], request.body)));
    });
  };
