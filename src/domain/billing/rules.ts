/**
 * Billing's one rounding rule, shared by the quote, the charge, the invoice and the payments
 * stand-in: a change is prorated by whole UTC calendar days (so a quote and the charge made
 * minutes later on the same day are the same cents), each amount rounded half up to the cent
 * once, and an invoice's tax is the share of the charge the quote's tax is of its total.
 */

const DAY_MS = 86_400_000;

/** Whole UTC calendar days from a's date to b's date (0 when b's date is not after a's). */
export function calendarDays(a: Date, b: Date): number {
  const day = (d: Date) => Math.floor(d.getTime() / DAY_MS);
  return Math.max(day(b) - day(a), 0);
}

/** n × num / den rounded half up, exact for any cents (BigInt); 0 when den is not positive. */
export function scaleHalfUp(n: number, num: number, den: number): number {
  if (den <= 0) return 0;
  return Number((2n * BigInt(n) * BigInt(num) + BigInt(den)) / (2n * BigInt(den)));
}

/** The days a period has, and those of it left on `now`'s date: what a prorated change is priced on. */
export function billableDays(periodStart: Date, periodEnd: Date, now: Date): { period: number; remaining: number } {
  const period = calendarDays(periodStart, periodEnd);
  const from = now.getTime() < periodStart.getTime() ? periodStart : now;
  return { period, remaining: Math.min(calendarDays(from, periodEnd), period) };
}

/** An invoice's totals for a charge in cents: net + tax = total, the tax in the quote's proportion. */
export function invoiceTotals(chargeCents: number, quote: { taxCents: number; totalCents: number }): { subtotal: number; tax: number; total: number } {
  const tax = Math.min(scaleHalfUp(chargeCents, quote.taxCents, quote.totalCents), chargeCents);
  return { subtotal: chargeCents - tax, tax, total: chargeCents };
}

/** A status a person reads: `past_due` → `pastDue`, the i18n key under `billing.statuses`. */
export function statusKey(status: string): string {
  return status.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * What a server's billing line says, the same on every screen (server page, its card, the
 * deployments list, Management → Billing, the admin area): from the moment a deletion is
 * confirmed, and after it, no next bill is promised.
 */
export type BillingLine =
  | { key: 'deleted' }
  | { key: 'deleting'; date: string }
  | { key: 'free' }
  | { key: 'paymentPending' }
  | { key: 'canceled' }
  | { key: 'ending'; date: string }
  | { key: 'next'; date: string }
  | { key: 'none' };

export interface BillingFacts {
  free: boolean;
  status: string | null;
  /** When the server is to be deleted (its termination), null when no deletion is scheduled. */
  deletingOn: string | null;
  deleted: boolean;
  nextBilledAt: string | null;
  /** The vendor's scheduled change as the API passes it on (Paddle's shape, or null). */
  scheduledChange: unknown;
}

/** When a scheduled cancellation takes effect, if one is scheduled. */
export function cancellationDate(scheduledChange: unknown): string | null {
  if (!scheduledChange || typeof scheduledChange !== 'object') return null;
  const { action, effective_at: at } = scheduledChange as { action?: unknown; effective_at?: unknown };
  return action === 'cancel' && typeof at === 'string' ? at : null;
}

export function billingLine(f: BillingFacts): BillingLine {
  if (f.deleted) return { key: 'deleted' };
  if (f.deletingOn) return { key: 'deleting', date: f.deletingOn };
  if (f.free) return { key: 'free' };
  if (f.status === 'pending') return { key: 'paymentPending' };
  if (f.status === 'canceled') return { key: 'canceled' };
  const ends = cancellationDate(f.scheduledChange);
  if (ends) return { key: 'ending', date: ends };
  return f.nextBilledAt ? { key: 'next', date: f.nextBilledAt } : { key: 'none' };
}

/**
 * What a subscription's status reads as, on every screen and export that shows one: its own
 * status (Active, Past due...) while it bills on, but the billing line once it stops billing
 * (deleting, deleted, ending, ended), so no screen says "Active" for a server being deleted.
 */
export type SubscriptionState = { kind: 'status'; status: string | null } | { kind: 'line'; line: BillingLine };

const STOPPED_LINES: ReadonlySet<BillingLine['key']> = new Set(['deleted', 'deleting', 'ending', 'canceled']);

export function subscriptionState(f: BillingFacts): SubscriptionState {
  const line = billingLine(f);
  return STOPPED_LINES.has(line.key) ? { kind: 'line', line } : { kind: 'status', status: f.status };
}
