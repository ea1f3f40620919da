import { describe, expect, it } from 'vitest';
import { abbreviateNumber, codeAsWords, formatAmount, formatCents, planCodeLabel } from './format';

describe('formats', () => {
  it('writes prices in en-US dollars, whole dollars without cents, and 0 as free (null)', () => {
    expect(formatCents(4900)).toBe('$49');
    expect(formatCents(108864)).toBe('$1,088.64');
    expect(formatCents(1199900)).toBe('$11,999');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(0)).toBeNull();
  });

  it('writes every amount as Intl.NumberFormat does for en-US dollars', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const whole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });
    const amounts = [1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 123_456, 1_000_000, 12_345_678, 100_000_000, 987_654_321_01];
    for (let cents = 1; cents < 300_000; cents += 997) amounts.push(cents);
    for (const cents of amounts.flatMap((c) => [c, -c])) {
      expect(formatCents(cents)).toBe(cents % 100 === 0 ? whole.format(cents / 100) : usd.format(cents / 100));
    }
  });

  it('writes wire amounts (decimal strings) as dollars, cents only when there are some unless asked', () => {
    expect(formatAmount('221.96')).toBe('$221.96');
    expect(formatAmount('49.00')).toBe('$49');
    expect(formatAmount('1088.5')).toBe('$1,088.50');
    expect(formatAmount('0.00')).toBe('$0');
    expect(formatAmount('49.00', { cents: 'always' })).toBe('$49.00');
    expect(formatAmount('-12.30', { cents: 'always' })).toBe('-$12.30');
    expect(() => formatAmount('12.345')).toThrow(RangeError);
  });

  it('abbreviates large numbers with K and M', () => {
    expect(abbreviateNumber(500)).toBe('500');
    expect(abbreviateNumber(1000)).toBe('1K');
    expect(abbreviateNumber(2500)).toBe('2.5K');
    expect(abbreviateNumber(250_000)).toBe('250K');
    expect(abbreviateNumber(1_000_000)).toBe('1M');
    expect(abbreviateNumber(2_500_000)).toBe('2.5M');
    expect(abbreviateNumber(1_250_000)).toBe('1.3M');
  });
});

describe('codeAsWords', () => {
  it('reads snake_case, dotted and camelCase codes as a sentence', () => {
    expect(codeAsWords('past_due')).toBe('Past due');
    expect(codeAsWords('user.signIn')).toBe('User sign in');
    expect(codeAsWords('analyticsTenant')).toBe('Analytics tenant');
    expect(codeAsWords('completed')).toBe('Completed');
    expect(codeAsWords('')).toBe('');
  });
});

describe('planCodeLabel', () => {
  it('names the tier and provider of a plan code', () => {
    expect(planCodeLabel('v3.mau_25_000_gcp.base')).toBe('25K MAU · GCP');
    expect(planCodeLabel('v3.mau_500_gcp.base')).toBe('500 MAU · GCP');
    expect(planCodeLabel('enterprise_custom')).toBe('Enterprise custom');
  });
});
