import { describe, expect, it } from 'vitest';
import { includesCustomDomain } from '../deployments/schemas';
import { priceMatchesQuote } from './schemas';

const quote = { currency: 'USD', total: '70.38', tax: '11.38', lines: [{ amount: '49.00' }, { amount: '10.00' }, { amount: '0.00' }] };

describe('a payment settles only the stored price', () => {
  it('takes the same currency, items in any order and the same amount before tax', () => {
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [1000, 4900] })).toBe(true);
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [4900, 0, 1000], net: 5900 })).toBe(true);
  });

  it('refuses another currency, a missing, extra or cheaper item, and another amount', () => {
    expect(priceMatchesQuote(quote, { currency: 'EUR', items: [4900, 1000] })).toBe(false);
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [4900] })).toBe(false);
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [4900, 1000, 100] })).toBe(false);
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [4900, 999] })).toBe(false);
    expect(priceMatchesQuote(quote, { currency: 'USD', items: [4900, 1000], net: 100 })).toBe(false);
  });
});

describe('custom domains', () => {
  it('need a domain option other than the hosted default', () => {
    expect(includesCustomDomain([])).toBe(false);
    expect(includesCustomDomain(['domain.default'])).toBe(false);
    expect(includesCustomDomain(['domain.custom'])).toBe(true);
  });
});
