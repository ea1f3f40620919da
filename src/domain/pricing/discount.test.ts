import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyDiscount } from './discount';
import type { DiscountInput } from './types';

const now = new Date('2025-06-01T12:00:00Z');
const percent = (value: number, extra: Partial<DiscountInput> = {}): DiscountInput => ({ code: 'SAVE', kind: 'percent', value, uses: 0, ...extra });
const fixed = (value: number, extra: Partial<DiscountInput> = {}): DiscountInput => ({ code: 'FLAT', kind: 'fixed', value, uses: 0, ...extra });

describe('discount codes', () => {
  it('takes a percent off, rounded half up to the cent', () => {
    expect(applyDiscount(percent(10), 13_800, now)).toEqual({ code: 'SAVE', applied: true, amount: 1380, reason: null });
    expect(applyDiscount(percent(10), 1005, now).amount).toBe(101); // 100.5
    expect(applyDiscount(percent(12.5), 1000, now).amount).toBe(125);
    expect(applyDiscount(percent(100), 4900, now).amount).toBe(4900);
    expect(applyDiscount(percent(0), 4900, now)).toMatchObject({ applied: true, amount: 0 });
  });

  it('takes a fixed amount of cents off, never more than the subtotal', () => {
    expect(applyDiscount(fixed(500), 4900, now)).toEqual({ code: 'FLAT', applied: true, amount: 500, reason: null });
    expect(applyDiscount(fixed(10_000), 4900, now).amount).toBe(4900);
    expect(applyDiscount(fixed(500), 0, now).amount).toBe(0);
  });

  it('is not applied once expired, from the expiry instant on', () => {
    const expired = { applied: false, amount: 0, reason: 'pricing.discountExpired' };
    expect(applyDiscount(percent(10, { expiresAt: '2025-05-31T23:59:59Z' }), 1000, now)).toMatchObject(expired);
    expect(applyDiscount(percent(10, { expiresAt: now.toISOString() }), 1000, now)).toMatchObject(expired);
    expect(applyDiscount(percent(10, { expiresAt: '2025-06-01T12:00:00.001Z' }), 1000, now)).toMatchObject({ applied: true, amount: 100 });
  });

  it('is not applied once its uses reach the limit; no limit means unlimited', () => {
    const exhausted = { applied: false, amount: 0, reason: 'pricing.discountExhausted' };
    expect(applyDiscount(fixed(100, { maxUses: 3, uses: 3 }), 1000, now)).toMatchObject(exhausted);
    expect(applyDiscount(fixed(100, { maxUses: 3, uses: 4 }), 1000, now)).toMatchObject(exhausted);
    expect(applyDiscount(fixed(100, { maxUses: 0, uses: 0 }), 1000, now)).toMatchObject(exhausted);
    expect(applyDiscount(fixed(100, { maxUses: 3, uses: 2 }), 1000, now)).toMatchObject({ applied: true, amount: 100 });
    expect(applyDiscount(fixed(100, { uses: 1_000_000 }), 1000, now)).toMatchObject({ applied: true, amount: 100 });
  });

  it('reports expiry before exhaustion when both hold', () => {
    expect(applyDiscount(fixed(100, { expiresAt: '2020-01-01T00:00:00Z', maxUses: 1, uses: 1 }), 1000, now).reason).toBe('pricing.discountExpired');
  });

  it('refuses malformed codes rather than guessing', () => {
    const invalid = { applied: false, amount: 0, reason: 'pricing.discountInvalid' };
    expect(applyDiscount(percent(-5), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(percent(101), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(percent(Number.NaN), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(fixed(-1), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(fixed(9.99), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(fixed(100, { expiresAt: 'next week' }), 1000, now)).toMatchObject(invalid);
    expect(applyDiscount(fixed(100), 1000, new Date(Number.NaN))).toMatchObject(invalid);
  });

  it('never takes more than the subtotal nor less than nothing', () => {
    const discount = fc.record({
      code: fc.string(),
      kind: fc.constantFrom('percent' as const, 'fixed' as const),
      value: fc.oneof(fc.integer({ min: -1000, max: 1e9 }), fc.double({ noNaN: false })),
      expiresAt: fc.option(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), { nil: undefined }),
      maxUses: fc.option(fc.nat(10), { nil: undefined }),
      uses: fc.nat(10),
    });
    fc.assert(
      fc.property(discount, fc.integer({ min: 0, max: 1e10 }), fc.date({ noInvalidDate: true }), (d, subtotal, at) => {
        const result = applyDiscount(d, subtotal, at);
        expect(Number.isSafeInteger(result.amount)).toBe(true);
        expect(result.amount).toBeGreaterThanOrEqual(0);
        expect(result.amount).toBeLessThanOrEqual(subtotal);
        expect(result.applied).toBe(result.reason === null);
        if (!result.applied) expect(result.amount).toBe(0);
      }),
    );
  });
});
