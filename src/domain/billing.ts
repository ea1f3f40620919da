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
