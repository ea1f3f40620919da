import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billableDays, billingLine, calendarDays, invoiceTotals, statusKey, subscriptionState } from './rules';
import { centsToDecimal, decimalToCents } from '../money';
import { prorate } from '../orders/changes';
import { taxCents } from '../pricing/tax';

const DAY_MS = 86_400_000;
const start = Date.UTC(2026, 0, 1);

describe('billing rounding rule', () => {
  it('counts whole UTC calendar days', () => {
    expect(calendarDays(new Date('2026-11-26T23:59:00Z'), new Date('2026-12-26T00:00:00Z'))).toBe(30);
    expect(calendarDays(new Date('2026-11-26T00:01:00Z'), new Date('2026-12-26T23:00:00Z'))).toBe(30);
    expect(billableDays(new Date('2026-11-26T10:00:00Z'), new Date('2026-12-26T10:00:00Z'), new Date('2027-01-01T00:00:00Z'))).toEqual({ period: 30, remaining: 0 });
  });

  it('quote = charge = invoice to the cent, for any prices, tax, period and moments on the same day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.constantFrom(0, 8.1, 19, 20, 25.5),
        fc.boolean(),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 28, max: 366 }),
        fc.integer({ min: 0, max: 400 * DAY_MS }),
        fc.integer({ min: 0, max: DAY_MS - 1 }),
        (currentNet, nextNet, rate, cycleChanges, offsetDays, periodDays, elapsed, later) => {
          const periodStart = new Date(start + offsetDays * DAY_MS + 37_000);
          const periodEnd = new Date(periodStart.getTime() + periodDays * DAY_MS);
          const currentTotal = currentNet + taxCents(currentNet, rate);
          const nextTax = taxCents(nextNet, rate);
          const nextTotal = nextNet + nextTax;
          const quotedAt = new Date(periodStart.getTime() + elapsed);
          // The charge is made later the same UTC day as the quote.
          const dayEnd = (Math.floor(quotedAt.getTime() / DAY_MS) + 1) * DAY_MS - 1;
          const chargedAt = new Date(Math.min(quotedAt.getTime() + later, dayEnd));
          const input = { currentTotal, nextTotal, cycleChanges, periodStart, periodEnd };
          const quote = prorate({ ...input, now: quotedAt });
          const charge = prorate({ ...input, now: chargedAt });
          expect(charge).toEqual(quote);
          const invoice = invoiceTotals(charge.dueNow, { taxCents: nextTax, totalCents: nextTotal });
          expect(invoice.total).toBe(quote.dueNow);
          expect(invoice.subtotal + invoice.tax).toBe(invoice.total);
          expect(invoice.tax).toBeGreaterThanOrEqual(0);
          // The wire strings read back to the same cents: the invoice prints what was quoted.
          expect(decimalToCents(centsToDecimal(invoice.total))).toBe(quote.dueNow);
          expect(centsToDecimal(invoice.subtotal + invoice.tax)).toBe(centsToDecimal(quote.dueNow));
        },
      ),
    );
  });

  it('splits an untaxed charge into no tax and a taxed one in the quote\u2019s proportion', () => {
    expect(invoiceTotals(22_196, { taxCents: 0, totalCents: 11_900 })).toEqual({ subtotal: 22_196, tax: 0, total: 22_196 });
    expect(invoiceTotals(11_900, { taxCents: 1_900, totalCents: 11_900 })).toEqual({ subtotal: 10_000, tax: 1_900, total: 11_900 });
  });

  it('names statuses as i18n keys', () => {
    expect(statusKey('past_due')).toBe('pastDue');
    expect(statusKey('completed')).toBe('completed');
  });
});

describe('billingLine', () => {
  const running = { free: false, status: 'active', deletingOn: null, deleted: false, nextBilledAt: '2026-12-26T10:00:00.000Z', scheduledChange: null };
  it('promises no next bill once a deletion is confirmed, nor after it', () => {
    expect(billingLine(running)).toEqual({ key: 'next', date: running.nextBilledAt });
    expect(billingLine({ ...running, deletingOn: '2026-12-03T10:00:00.000Z' })).toEqual({ key: 'deleting', date: '2026-12-03T10:00:00.000Z' });
    expect(billingLine({ ...running, deleted: true })).toEqual({ key: 'deleted' });
    expect(billingLine({ ...running, nextBilledAt: null, scheduledChange: { action: 'cancel', effective_at: '2026-12-26T10:00:00.000Z' } })).toEqual({ key: 'ending', date: '2026-12-26T10:00:00.000Z' });
  });
  it('says a payment is pending and a free server is free', () => {
    expect(billingLine({ ...running, status: 'pending', nextBilledAt: null })).toEqual({ key: 'paymentPending' });
    expect(billingLine({ ...running, free: true })).toEqual({ key: 'free' });
  });
});

describe('subscriptionState', () => {
  const running = { free: false, status: 'active', deletingOn: null, deleted: false, nextBilledAt: '2026-12-26T10:00:00.000Z', scheduledChange: null };
  it('reads as its status while it bills on', () => {
    expect(subscriptionState(running)).toEqual({ kind: 'status', status: 'active' });
    expect(subscriptionState({ ...running, status: 'past_due' })).toEqual({ kind: 'status', status: 'past_due' });
    expect(subscriptionState({ ...running, status: null })).toEqual({ kind: 'status', status: null });
  });
  it('reads as the billing line once billing stops, never "active" for a server being deleted', () => {
    expect(subscriptionState({ ...running, deletingOn: '2026-12-03T10:00:00.000Z' })).toEqual({ kind: 'line', line: { key: 'deleting', date: '2026-12-03T10:00:00.000Z' } });
    expect(subscriptionState({ ...running, deleted: true })).toEqual({ kind: 'line', line: { key: 'deleted' } });
    expect(subscriptionState({ ...running, status: 'canceled' })).toEqual({ kind: 'line', line: { key: 'canceled' } });
  });
});
