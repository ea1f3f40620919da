import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centsToDecimal, decimalToCents } from './money';

describe('money', () => {
  it('writes cents as a two-decimal string', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(2900)).toBe('29.00');
    expect(centsToDecimal(-1234)).toBe('-12.34');
  });

  it('reads decimal strings into cents', () => {
    expect(decimalToCents('29')).toBe(2900);
    expect(decimalToCents('29.5')).toBe(2950);
    expect(decimalToCents('0.05')).toBe(5);
    expect(() => decimalToCents('1.234')).toThrow(RangeError);
    expect(() => decimalToCents('abc')).toThrow(RangeError);
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => decimalToCents(centsToDecimal(cents)) === cents));
  });
});
