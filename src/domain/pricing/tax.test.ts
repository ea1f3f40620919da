import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TAX_RATES, taxCents, taxRate } from './tax';

describe('tax rates', () => {
  it('looks rates up by ISO country code, ignoring case and spaces', () => {
    expect(taxRate('DE')).toBe(19);
    expect(taxRate(' gb ')).toBe(20);
    expect(taxRate('fi')).toBe(25.5);
    expect(taxRate('CH')).toBe(8.1);
  });

  it('charges nothing in the US, in unknown countries or without a country', () => {
    expect(taxRate('US')).toBe(0);
    expect(taxRate('ZZ')).toBe(0);
    expect(taxRate('')).toBe(0);
    expect(taxRate(null)).toBe(0);
    expect(taxRate(undefined)).toBe(0);
    // Object prototype names are not countries.
    expect(taxRate('constructor')).toBe(0);
    expect(taxRate('__proto__')).toBe(0);
  });

  it('keeps a sane table: two-letter upper-case codes and rates between 0 and 100', () => {
    for (const [code, rate] of Object.entries(TAX_RATES)) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(rate).toBeGreaterThanOrEqual(0);
      expect(rate).toBeLessThan(100);
    }
    expect(Object.isFrozen(TAX_RATES)).toBe(true);
  });
});

describe('tax rounding', () => {
  it('rounds half a cent up', () => {
    expect(taxCents(250, 19)).toBe(48); // 47.5
    expect(taxCents(50, 19)).toBe(10); // 9.5
    expect(taxCents(2, 25.5)).toBe(1); // 0.51
    expect(taxCents(1, 25.5)).toBe(0); // 0.255
    expect(taxCents(10, 25)).toBe(3); // 2.5
    expect(taxCents(1000, 8.1)).toBe(81);
    expect(taxCents(4321, 8.1)).toBe(350); // 350.001
    expect(taxCents(13_800, 20)).toBe(2760);
  });

  it('is zero on nothing, at a zero rate, and never negative', () => {
    expect(taxCents(0, 25)).toBe(0);
    expect(taxCents(12_345, 0)).toBe(0);
    expect(taxCents(-100, 20)).toBe(0);
  });

  it('is the exact amount rounded half up, for any amount and table rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e10 }), fc.constantFrom(...Object.values(TAX_RATES)), (net, rate) => {
        const tax = taxCents(net, rate);
        const exact = net * Math.round(rate * 100); // tax × 10 000, unrounded
        expect(Number.isSafeInteger(tax)).toBe(true);
        // Half up: tax − ½ ≤ exact < tax + ½ (in units of 1/10 000 cent).
        expect(tax * 10_000 - 5_000).toBeLessThanOrEqual(exact);
        expect(exact).toBeLessThan(tax * 10_000 + 5_000);
      }),
    );
  });

  it('never falls when the amount grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(...Object.values(TAX_RATES)), (net, more, rate) => {
        expect(taxCents(net + more, rate)).toBeGreaterThanOrEqual(taxCents(net, rate));
      }),
    );
  });
});
