import { randomBytes } from 'node:crypto';
import { decimalToCents } from '../../../src/domain/money';
import { periodEnd } from '../../../src/domain/orders/changes';
import type { SubscriptionQuote } from '../../../src/domain/orders/schemas';
import type { CardSummary, PaddleEvent, ScheduledChange } from '../../../src/domain/payments/schemas';

/**
 * The local checkout stand-in plays Paddle: it builds the notifications Paddle Billing would send
 * (same event names and payload shapes, amounts in cents as strings) for our own webhook route.
 */

const token = (prefix: string) => `${prefix}_01${randomBytes(12).toString('hex')}`;
const minor = (amount: string) => String(decimalToCents(amount));

export const newVendorSubscriptionId = () => token('sub');
export const newVendorCustomerId = () => token('ctm');
export const newVendorTransactionId = () => token('txn');

interface Ids {
  deploymentId: string;
  subscriptionId: string;
  companyId: string;
}

function event(type: string, occurredAt: Date, data: Record<string, unknown>): PaddleEvent {
  return { event_id: token('evt'), notification_id: token('ntf'), event_type: type, occurred_at: occurredAt.toISOString(), data };
}

export function subscriptionEvent(
  type: 'subscription.created' | 'subscription.activated' | 'subscription.updated',
  input: { vendorSubscriptionId: string; customerId: string; quote: SubscriptionQuote; periodStart: Date; ids: Ids; at: Date; status?: 'active' | 'past_due' | 'paused'; scheduledChange?: ScheduledChange | null; transactionId?: string },
): PaddleEvent {
  const ends = periodEnd(input.periodStart, input.quote.cycle);
  return event(type, input.at, {
    id: input.vendorSubscriptionId,
    // Paddle names the transaction that created the subscription on its created/activated events.
    ...(input.transactionId ? { transaction_id: input.transactionId } : {}),
    status: input.status ?? 'active',
    customer_id: input.customerId,
    currency_code: input.quote.currency,
    billing_cycle: { interval: input.quote.cycle, frequency: 1 },
    current_billing_period: { starts_at: input.periodStart.toISOString(), ends_at: ends.toISOString() },
    // As Paddle does: a subscription set to cancel has no next bill.
    next_billed_at: input.scheduledChange?.action === 'cancel' ? null : ends.toISOString(),
    scheduled_change: input.scheduledChange ?? null,
    items: input.quote.lines.map((l) => ({ quantity: 1, price: { name: l.name, unit_price: { amount: minor(l.amount), currency_code: input.quote.currency } } })),
    custom_data: input.ids,
  });
}

export function transactionCompletedEvent(input: {
  vendorSubscriptionId: string;
  customerId: string;
  totals: { subtotal: string; discount: string; tax: string; total: string };
  lines: { name: string; amount: string }[];
  currency: string;
  card: CardSummary & { cardholderName?: string };
  origin: 'web' | 'subscription_update' | 'subscription_recurring';
  ids: Ids;
  at: Date;
  transactionId?: string;
  /** The period paid for, as Paddle's billing_period: a new period, a renewal's, or the rest of one for a change. */
  period: { from: Date; to: Date };
}): PaddleEvent {
  return event('transaction.completed', input.at, {
    id: input.transactionId ?? token('txn'),
    status: 'completed',
    origin: input.origin,
    subscription_id: input.vendorSubscriptionId,
    customer_id: input.customerId,
    // No vendor number: we issue the stand-in's invoices, numbered from our gapless series when recorded.
    invoice_number: null,
    currency_code: input.currency,
    billed_at: input.at.toISOString(),
    billing_period: { starts_at: input.period.from.toISOString(), ends_at: input.period.to.toISOString() },
    custom_data: input.ids,
    details: {
      totals: { subtotal: minor(input.totals.subtotal), discount: minor(input.totals.discount), tax: minor(input.totals.tax), total: minor(input.totals.total), grand_total: minor(input.totals.total) },
      line_items: input.lines.map((l) => ({ quantity: 1, product: { name: l.name }, totals: { subtotal: minor(l.amount), total: minor(l.amount) } })),
    },
    payments: [
      {
        status: 'captured',
        method_details: {
          type: 'card',
          card: { type: input.card.brand, last4: input.card.last4, expiry_month: input.card.expiryMonth, expiry_year: input.card.expiryYear, cardholder_name: input.card.cardholderName ?? null },
        },
      },
    ],
  });
}
