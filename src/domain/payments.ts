import { z } from 'zod';
import type { SubscriptionDto } from './orders';

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
  custom_data: customData,
  details: z.object({
    totals: z.object({ subtotal: minorUnits, discount: minorUnits, tax: minorUnits, total: minorUnits }),
    line_items: z.array(z.object({ quantity: z.number().int(), product: z.object({ name: z.string().max(200) }).partial().nullish(), totals: z.object({ total: minorUnits }).partial().nullish(), price_id: z.string().nullish() }).partial()).default([]),
  }),
  payments: z.array(z.object({ status: z.string().max(40), method_details: z.object({ type: z.string(), card: cardSchema.nullish() }).nullish() }).partial()).default([]),
});
export type PaddleTransaction = z.infer<typeof paddleTransactionSchema>;

/** The envelope of every Paddle notification. */
export const paddleEventSchema = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  occurred_at: isoDate,
  notification_id: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()),
});
export type PaddleEvent = z.infer<typeof paddleEventSchema>;

export interface CardSummary {
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface ReceiptData {
  customerEmail: string | null;
  lines: { name: string; amount: string }[];
  card: CardSummary | null;
}

export interface TransactionDto {
  _id: string;
  deploymentId: string | null;
  subscriptionId: string | null;
  vendorTransactionId: string;
  invoiceNumber: string | null;
  status: string;
  currency: string;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  billedAt: string;
}

export interface CompanyBilling {
  subscriptions: (SubscriptionDto & { deploymentName: string })[];
  transactions: TransactionDto[];
  card: CardSummary | null;
  pastDue: { count: number; since: string | null; pauseAfter: string | null };
}

/** GET /payments/config: what the browser needs to open a checkout (never a secret). */
export interface PaymentsClientConfig {
  mode: 'paddle' | 'stand-in';
  environment: 'sandbox' | 'production' | null;
  clientToken: string | null;
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
