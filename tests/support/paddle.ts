import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const PADDLE_SECRET = 'pdl_ntfset_test_secret';

export interface PaddleCall {
  method: string;
  url: string;
  auth: string;
  body: Record<string, unknown>;
}

/** How the fake answers one call: after `delayMs`, and with `status` (an error answer when not 2xx). */
export interface FakePaddleAnswer {
  delayMs?: number;
  status?: number;
}

/**
 * A local stand-in for Paddle's REST API: records every call (as it arrives, before any delay)
 * and answers `{ data: { id } }` (a new transaction id for POST, the card-update transaction for
 * GET, the path's id otherwise). `answer` may slow a call down or make it fail.
 */
export async function startFakePaddle(options: { answer?: (call: PaddleCall) => FakePaddleAnswer | undefined } = {}): Promise<{ calls: PaddleCall[]; url: string; close(): void }> {
  const calls: PaddleCall[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const call = { method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization ?? '', body: JSON.parse(raw || '{}') as Record<string, unknown> };
      const n = calls.push(call);
      const { delayMs = 0, status = 200 } = options.answer?.(call) ?? {};
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        if (status >= 300) {
          res.statusCode = status;
          return res.end(JSON.stringify({ error: { type: 'api_error', code: 'internal_error' } }));
        }
        const invoice = /^\/transactions\/([^/]+)\/invoice$/.exec(req.url ?? '');
        if (invoice) return res.end(JSON.stringify({ data: { url: `https://paddle.example/invoices/${invoice[1]}.pdf` } }));
        const id = req.method === 'POST' ? `txn_fake_${n}` : req.method === 'GET' ? 'txn_update_card' : (req.url ?? '').split('/').pop();
        res.end(JSON.stringify({ data: { id } }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // close() also ends calls still being delayed, so a test's end does not wait for them.
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  return { calls, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

/** The settings of an app in Paddle mode against the fake API at `url`. */
export const paddleSettings = (url: string) => ({
  PADDLE_API_KEY: 'pdl_sdbx_apikey_test',
  PADDLE_WEBHOOK_SECRET: PADDLE_SECRET,
  PADDLE_CLIENT_TOKEN: 'test_clienttoken',
  PADDLE_PRODUCT_ID: 'pro_test',
  PADDLE_API_URL: url,
});

export function paddleEvent(type: string, at: Date, data: Record<string, unknown>) {
  return { event_id: `evt_${randomUUID()}`, event_type: type, occurred_at: at.toISOString(), notification_id: `ntf_${randomUUID()}`, data };
}

/** Posts a notification signed as Paddle signs it (a wrong h1 first: every h1 is tried); options forge it. */
export function paddleWebhook(app: FastifyInstance, body: unknown, opts: { secret?: string; ts?: number; tamper?: boolean; header?: string | null } = {}) {
  const raw = JSON.stringify(body);
  const ts = String(opts.ts ?? Math.floor(Date.now() / 1000));
  const h1 = createHmac('sha256', opts.secret ?? PADDLE_SECRET).update(`${ts}:${raw}`).digest('hex');
  const header = opts.header === undefined ? `ts=${ts};h1=${'0'.repeat(64)};h1=${h1}` : opts.header;
  const payload = opts.tamper ? raw.replace('"active"', '"canceled"') : raw;
  return app.inject({ method: 'POST', url: '/api/v1/payments/paddle/webhook', payload, headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'paddle-signature': header }) } });
}

const minor = (amount: string) => String(Math.round(Number(amount) * 100));

/**
 * Pays an order as Paddle confirms a checkout: subscription.activated naming the checkout's
 * transaction and the order's items, then that transaction completed for the order's price.
 * `order` is the POST /deployments answer with ?addProvisionSummary=1.
 */
export async function paddlePaysOrder(
  app: FastifyInstance,
  order: { provisionSummary: { items: { pricing: { price: { amount: string } } }[]; total: { amount: string }; tax: string; subtotal: string; discount: string; dataToVendor: { transactionId: string | null; customData: Record<string, string> } } },
  subscription: Record<string, unknown> & { id: string },
  at = new Date(),
) {
  const summary = order.provisionSummary;
  const transactionId = summary.dataToVendor.transactionId;
  const items = summary.items.filter((i) => Number(i.pricing.price.amount) > 0).map((i) => ({ quantity: 1, price: { unit_price: { amount: minor(i.pricing.price.amount), currency_code: 'USD' } } }));
  const activated = await paddleWebhook(app, paddleEvent('subscription.activated', at, { status: 'active', transaction_id: transactionId, currency_code: 'USD', items, custom_data: summary.dataToVendor.customData, ...subscription }));
  const completed = await paddleWebhook(
    app,
    paddleEvent('transaction.completed', new Date(at.getTime() + 1), {
      id: transactionId,
      status: 'completed',
      origin: 'web',
      subscription_id: subscription.id,
      currency_code: 'USD',
      custom_data: summary.dataToVendor.customData,
      details: {
        totals: { subtotal: minor(summary.subtotal), discount: minor(summary.discount), tax: minor(summary.tax), total: minor(summary.total.amount) },
        line_items: items.map((i) => ({ quantity: 1, totals: { subtotal: i.price.unit_price.amount, total: i.price.unit_price.amount } })),
      },
      payments: [],
    }),
  );
  return [activated, completed];
}
