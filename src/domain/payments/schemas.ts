import { z } from 'zod';
import { BILLING_CYCLES } from '../constants';
import { decimalToCents } from '../money';
import { SUBSCRIPTION_STATUSES, subscriptionDtoSchema } from '../orders/schemas';
import { taxBasisSchema } from '../billing/schemas';

/**
 * Payments (Paddle Billing): the shapes of Paddle's notifications we read, the card summary and
 * receipt we keep, the local checkout stand-in's wire contract and its test cards.
 */

export const PADDLE_SIGNATURE_HEADER = 'paddle-signature';

/** Paddle's amounts are strings of the lowest currency unit (cents), e.g. "4900". */
const minorUnits = z.string().regex(/^\d{1,15}$/);
const isoDate = z.iso.datetime({ offset: true });
const customData = z
  .object({ deploymentId: z.string().optional(), subscriptionId: z.string().optional(), companyId: z.string().optional() })
  .nullish();

export const scheduledChangeSchema = z
  .object({ action: z.enum(['cancel', 'pause', 'resume']), effective_at: isoDate, resume_at: isoDate.nullish() })
  .nullish();
export type ScheduledChange = NonNullable<z.infer<typeof scheduledChangeSchema>>;

export const PADDLE_SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'paused', 'trialing'] as const;

/** data of subscription.* notifications (the fields we use). */
export const paddleSubscriptionSchema = z.object({
  id: z.string().min(1).max(100),
  status: z.enum(PADDLE_SUBSCRIPTION_STATUSES),
  customer_id: z.string().max(100).nullish(),
  current_billing_period: z.object({ starts_at: isoDate, ends_at: isoDate }).nullish(),
  next_billed_at: isoDate.nullish(),
  scheduled_change: scheduledChangeSchema,
  custom_data: customData,
  /** The transaction that created the subscription (on subscription.created and .activated). */
  transaction_id: z.string().max(100).nullish(),
  currency_code: z.string().length(3).nullish(),
  items: z
    .array(z.object({ quantity: z.number().int().min(0).max(1000).default(1), price: z.object({ unit_price: z.object({ amount: minorUnits, currency_code: z.string().length(3) }) }) }))
    .max(200)
    .nullish(),
});
export type PaddleSubscription = z.infer<typeof paddleSubscriptionSchema>;

const cardSchema = z.object({ type: z.string().max(40), last4: z.string().regex(/^\d{4}$/), expiry_month: z.number().int(), expiry_year: z.number().int(), cardholder_name: z.string().max(200).nullish() });

/** data of transaction.completed (the fields we use). */
export const paddleTransactionSchema = z.object({
  id: z.string().min(1).max(100),
  status: z.string().max(40),
  origin: z.string().max(60).nullish(),
  subscription_id: z.string().max(100).nullish(),
  customer_id: z.string().max(100).nullish(),
  invoice_number: z.string().max(100).nullish(),
  currency_code: z.string().length(3),
  billed_at: isoDate.nullish(),
  /** The period the transaction pays for (null for a one-off charge). */
  billing_period: z.object({ starts_at: isoDate, ends_at: isoDate }).nullish(),
  custom_data: customData,
  details: z.object({
    totals: z.object({ subtotal: minorUnits, discount: minorUnits, tax: minorUnits, total: minorUnits }),
    line_items: z.array(z.object({ quantity: z.number().int(), product: z.object({ name: z.string().max(200) }).partial().nullish(), totals: z.object({ subtotal: minorUnits, total: minorUnits }).partial().nullish(), price_id: z.string().nullish() }).partial()).default([]),
  }),
  payments: z.array(z.object({ status: z.string().max(40), method_details: z.object({ type: z.string(), card: cardSchema.nullish() }).nullish() }).partial()).default([]),
});
export type PaddleTransaction = z.infer<typeof paddleTransactionSchema>;

/** A price as Paddle reports it, in cents: its currency, its items and, for a payment, what it charged before tax. */
export interface ReportedPrice {
  currency: string;
  items: number[];
  /** total − tax of a transaction (Paddle, the merchant of record, adds its own tax). */
  net?: number;
}

/**
 * A payment settles an order only for the price we stored: same currency, the same items (the
 * non-zero lines we sent, in any order) and, for a transaction, the same amount before tax.
 */
export function priceMatchesQuote(quote: { currency: string; lines: readonly { amount: string }[]; total: string; tax: string }, reported: ReportedPrice): boolean {
  if (reported.currency !== quote.currency) return false;
  const sorted = (cents: number[]) => cents.filter((c) => c !== 0).sort((a, b) => a - b);
  const expected = sorted(quote.lines.map((l) => decimalToCents(l.amount)));
  const items = sorted(reported.items);
  if (expected.length !== items.length || expected.some((c, i) => c !== items[i])) return false;
  return reported.net === undefined || reported.net === decimalToCents(quote.total) - decimalToCents(quote.tax);
}

/** The envelope of every Paddle notification. */
export const paddleEventSchema = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  occurred_at: isoDate,
  notification_id: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()),
});
export type PaddleEvent = z.infer<typeof paddleEventSchema>;

/** setAt: when the customer gave this card (a payment, or "Update card"); the newest is the one on file. */
export const cardSummarySchema = z.object({ brand: z.string(), last4: z.string(), expiryMonth: z.number(), expiryYear: z.number(), setAt: z.string().optional() });
export type CardSummary = z.infer<typeof cardSummarySchema>;

/** period: what the payment paid for, as the vendor said (absent on transactions recorded before it was kept). */
export const receiptDataSchema = z.object({
  customerEmail: z.string().nullable(),
  lines: z.array(z.object({ name: z.string(), amount: z.string() })),
  card: cardSummarySchema.nullable(),
  period: z.object({ from: z.string(), to: z.string() }).nullish(),
});
export type ReceiptData = z.infer<typeof receiptDataSchema>;

export const transactionDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  vendorTransactionId: z.string(),
  invoiceNumber: z.string().nullable(),
  status: z.string(),
  currency: z.string(),
  subtotal: z.string(),
  discount: z.string(),
  tax: z.string(),
  total: z.string(),
  billedAt: z.string(),
});
export type TransactionDto = z.infer<typeof transactionDtoSchema>;

export const companyBillingSchema = z.object({
  /**
   * deletingOn: the server's scheduled deletion; deleted: it is gone (restorable or not);
   * pendingOrder: an order never paid, when it was placed and when it is removed unless paid.
   */
  subscriptions: z.array(
    subscriptionDtoSchema.extend({ deploymentName: z.string(), free: z.boolean(), deletingOn: z.string().nullable(), deleted: z.boolean(), pendingOrder: z.object({ orderedAt: z.string(), removedOn: z.string() }).nullable() }),
  ),
  transactions: z.array(transactionDtoSchema),
  card: cardSummarySchema.nullable(),
  pastDue: z.object({ count: z.number(), since: z.string().nullable(), pauseAfter: z.string().nullable() }),
  /** The basis every next bill is on: the company's current billing country. */
  taxBasis: taxBasisSchema,
  /** The last change of that basis, while some server's next bill is the first on it; else null. */
  taxChange: z.object({ from: taxBasisSchema, to: taxBasisSchema, at: z.string() }).nullable(),
});
export type CompanyBilling = z.infer<typeof companyBillingSchema>;

/**
 * GET /payments/config: what the browser needs to open a checkout (never a secret). `off`: no
 * payment provider, paid orders and payments are refused, so the browser offers no card form.
 */
export const paymentsClientConfigSchema = z.object({
  mode: z.enum(['paddle', 'stand-in', 'off']),
  environment: z.enum(['sandbox', 'production']).nullable(),
  clientToken: z.string().nullable(),
});
export type PaymentsClientConfig = z.infer<typeof paymentsClientConfigSchema>;

/** GET /payments/checkout/{deploymentId}: what the payment step shows before paying. */
export const checkoutSummarySchema = z.object({
  mode: z.enum(['paddle', 'stand-in']),
  deploymentId: z.string(),
  /** The server's company: where the payment's result is read (its billing). */
  companyId: z.string(),
  name: z.string(),
  paymentRequired: z.boolean(),
  /** Why a payment is due: a new order awaiting its first payment, or a renewal the card failed. */
  purpose: z.enum(['order', 'pastDue']).nullable(),
  /** Paddle mode: the transaction paddle-js opens (the order's, or the card update of a past-due subscription). */
  transactionId: z.string().nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  cycle: z.enum(BILLING_CYCLES),
  items: z.array(z.object({ kind: z.string(), refId: z.string().nullable(), name: z.string(), amount: z.string() })),
  subtotal: z.string(),
  discount: z.string(),
  tax: z.string(),
  total: z.object({ amount: z.string(), currency: z.literal('USD') }),
  /** The tax's country and rate: the company's current billing country. */
  taxBasis: taxBasisSchema,
  customer: z.object({ email: z.string() }),
  /** The stand-in: the company's card on file, offered beside a new card (null with Paddle, whose checkout offers its own). */
  cardOnFile: cardSummarySchema.nullable(),
});

export type CheckoutSummary = z.infer<typeof checkoutSummarySchema>;

/** A stand-in payment that went through: the subscription, now active. */
export const standInPayAnswerSchema = z.object({ status: z.literal('completed'), subscription: subscriptionDtoSchema });

/** What the webhook answers Paddle (or the stand-in): the event was taken, and what it did. */
export const webhookAnswerSchema = z.object({ received: z.literal(true), duplicate: z.boolean(), outcome: z.string() });

/** POST /companies/{id}/billing/card (stand-in): the new card on file, for every subscription of the company. */
export const cardUpdateAnswerSchema = z.object({ card: cardSummarySchema });

/**
 * POST /companies/{id}/billing/card/checkout (Paddle): the card-update transaction Paddle's checkout
 * opens, for the server whose subscription it belongs to, and the payer's email for the checkout.
 */
export const cardCheckoutBodySchema = z.object({}).strict().nullish();
export const cardCheckoutAnswerSchema = z.object({ transactionId: z.string(), deploymentId: z.string().uuid(), email: z.string() });

export type CardCheckoutAnswer = z.infer<typeof cardCheckoutAnswerSchema>;

/** The card on file of a company: the one the customer gave last, whatever servers came and went since. */
export function cardOnFile(cards: readonly (CardSummary | null)[]): CardSummary | null {
  let newest: CardSummary | null = null;
  for (const card of cards) if (card && (!newest || (card.setAt ?? '') > (newest.setAt ?? ''))) newest = card;
  return newest;
}

/** POST /payments/checkout/{deploymentId}/pay (stand-in only): a test card. */
export const standInPaySchema = z.object({
  cardNumber: z.string({ error: 'validation.required' }).transform((s) => s.replace(/[\s-]/g, '')).pipe(z.string().regex(/^\d{12,19}$/, 'payments.cardNumber')),
  expiry: z.string({ error: 'validation.required' }).trim().regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, 'payments.cardExpiry'),
  cvc: z.string({ error: 'validation.required' }).trim().regex(/^\d{3,4}$/, 'payments.cardCvc'),
  cardholderName: z.string().trim().max(100, 'validation.invalid').optional(),
});
export type StandInPayBody = z.infer<typeof standInPaySchema>;

export const DECLINE_REASONS = ['declined', 'insufficientFunds', 'expiredCard', 'invalidNumber'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/**
 * The stand-in's test cards, as Paddle's sandbox documents them: these succeed or fail the same
 * way. Any other number that passes the Luhn check succeeds (like a sandbox card of any brand).
 */
export const TEST_CARDS: Record<string, { brand: string; outcome: 'success' | DeclineReason }> = {
  '4242424242424242': { brand: 'visa', outcome: 'success' },
  '5555555555554444': { brand: 'mastercard', outcome: 'success' },
  '4000000000000002': { brand: 'visa', outcome: 'declined' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficientFunds' },
  '4000000000000069': { brand: 'visa', outcome: 'expiredCard' },
};

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** What the stand-in does with a card: succeed with its brand, or decline with a reason. */
export function standInCardOutcome(body: StandInPayBody, now: Date): { ok: true; brand: string; expiryMonth: number; expiryYear: number } | { ok: false; reason: DeclineReason } {
  const [mm = '0', yy = '0'] = body.expiry.split('/').map((s) => s.trim());
  const expiryMonth = Number(mm);
  const expiryYear = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
  if (!luhnValid(body.cardNumber)) return { ok: false, reason: 'invalidNumber' };
  // A card is good through the last day of its expiry month.
  if (expiryYear * 12 + expiryMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return { ok: false, reason: 'expiredCard' };
  const known = TEST_CARDS[body.cardNumber];
  if (known && known.outcome !== 'success') return { ok: false, reason: known.outcome };
  return { ok: true, brand: known?.brand ?? (body.cardNumber.startsWith('4') ? 'visa' : body.cardNumber.startsWith('5') ? 'mastercard' : 'card'), expiryMonth, expiryYear };
}
