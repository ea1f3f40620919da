import type { BillingCycle } from '../../../src/domain/constants';
import { decimalToCents } from '../../../src/domain/money';
import type { Config } from '../../config';
import { AppError } from '../../errors';

/** One priced line of an order, sent to Paddle as a non-catalog price of our one product. */
export interface PaddleLine {
  name: string;
  /** Decimal string per cycle, before tax (Paddle, the merchant of record, adds the tax). */
  amount: string;
}

export interface PaddleClient {
  /** A draft transaction with the server-priced lines: paddle-js opens its checkout by id. */
  createTransaction(input: { lines: PaddleLine[]; cycle: BillingCycle; customData: Record<string, string>; discount?: string }): Promise<{ id: string }>;
  /** Replaces a subscription's items, charging the difference for the rest of the period now. */
  updateSubscription(subscriptionId: string, input: { lines: PaddleLine[]; cycle: BillingCycle }): Promise<void>;
  /**
   * The transaction paddle-js opens to replace a subscription's card. For a past-due subscription
   * Paddle collects the overdue amount with the new card and the subscription becomes active.
   */
  updatePaymentMethodTransaction(subscriptionId: string): Promise<{ id: string }>;
  /** Cancels at the end of the billing period already paid (Paddle then sends subscription.updated). */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** Withdraws a scheduled cancellation. */
  removeScheduledChange(subscriptionId: string): Promise<void>;
  /** A short-lived address of Paddle's own invoice PDF for a completed transaction. */
  invoiceUrl(transactionId: string): Promise<string>;
  /** Cancels a transaction not yet paid, so its checkout can no longer take money. */
  cancelTransaction(transactionId: string): Promise<void>;
}

export const paddleApiUrl = (config: Config) => config.PADDLE_API_URL ?? (config.PADDLE_ENV === 'production' ? 'https://api.paddle.com' : 'https://sandbox-api.paddle.com');

/**
 * Paddle Billing's REST API, used only when PADDLE_API_KEY is configured. Prices are never taken
 * from Paddle's catalogue: every line is a non-catalog price computed by our pricing engine, so
 * the price a customer sees, the one we store and the one Paddle charges are the same numbers.
 */
export function createPaddleClient(config: Config): PaddleClient | null {
  const { PADDLE_API_KEY: apiKey, PADDLE_PRODUCT_ID: productId } = config;
  if (!apiKey || !productId) return null;
  const base = paddleApiUrl(config).replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'paddle-version': '1' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      throw new AppError('PAYMENT_PROVIDER_ERROR');
    }
    const json = (await res.json().catch(() => null)) as { data?: Record<string, unknown> } | null;
    if (!res.ok || !json?.data) throw new AppError('PAYMENT_PROVIDER_ERROR');
    return json.data;
  }

  const items = (lines: PaddleLine[], cycle: BillingCycle) =>
    lines
      .filter((l) => decimalToCents(l.amount) > 0)
      .map((l) => ({
        quantity: 1,
        price: {
          product_id: productId,
          name: l.name.slice(0, 150),
          description: l.name.slice(0, 500),
          unit_price: { amount: String(decimalToCents(l.amount)), currency_code: 'USD' },
          billing_cycle: { interval: cycle, frequency: 1 },
          tax_mode: 'account_setting',
        },
      }));

  return {
    async createTransaction({ lines, cycle, customData, discount }) {
      // Our discount code, as Paddle's non-catalog flat discount on every cycle: Paddle then charges
      // the price we stored, which is what a notification must show to settle the order.
      const cents = discount ? decimalToCents(discount) : 0;
      const off = cents > 0 ? { currency_code: 'USD', discount: { type: 'flat', amount: String(cents), description: 'Discount code', recur: true } } : {};
      const data = await call('POST', '/transactions', { items: items(lines, cycle), custom_data: customData, collection_mode: 'automatic', ...off });
      if (typeof data.id !== 'string') throw new AppError('PAYMENT_PROVIDER_ERROR');
      return { id: data.id };
    },
    async updateSubscription(subscriptionId, { lines, cycle }) {
      await call('PATCH', `/subscriptions/${encodeURIComponent(subscriptionId)}`, { items: items(lines, cycle), proration_billing_mode: 'prorated_immediately' });
    },
    async cancelSubscription(subscriptionId) {
      await call('POST', `/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`, { effective_from: 'next_billing_period' });
    },
    async removeScheduledChange(subscriptionId) {
      await call('PATCH', `/subscriptions/${encodeURIComponent(subscriptionId)}`, { scheduled_change: null });
    },
    async updatePaymentMethodTransaction(subscriptionId) {
      const data = await call('GET', `/subscriptions/${encodeURIComponent(subscriptionId)}/update-payment-method-transaction`);
      if (typeof data.id !== 'string') throw new AppError('PAYMENT_PROVIDER_ERROR');
      return { id: data.id };
    },
    async cancelTransaction(transactionId) {
      await call('PATCH', `/transactions/${encodeURIComponent(transactionId)}`, { status: 'canceled' });
    },
    async invoiceUrl(transactionId) {
      const data = await call('GET', `/transactions/${encodeURIComponent(transactionId)}/invoice`);
      if (typeof data.url !== 'string' || !data.url.startsWith('https://')) throw new AppError('PAYMENT_PROVIDER_ERROR');
      return data.url;
    },
  };
}
