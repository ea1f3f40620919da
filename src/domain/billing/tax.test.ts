import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceOrder, type PricingPlan } from '../pricing';
import { applyTax, netOf, rebill, sameBasis, sumTaxed, taxBasis, taxLabel, type TaxBasis } from './tax';

const SELLER = 'DE123456789';
const DE: TaxBasis = { country: 'DE', rate: 19, kind: 'standard' };

/** One row per case: the buyer, what the rule makes of $98.00 net, and how the amount is labelled. */
const TABLE: { case: string; country: string | null; taxId?: string | null; seller?: string; basis: TaxBasis; tax: number; gross: number; label: string }[] = [
  { case: 'a VAT country', country: 'DE', basis: DE, tax: 1862, gross: 11662, label: 'taxLabel.standard 19 VAT DE' },
  { case: 'a lower-case country', country: 'de', basis: DE, tax: 1862, gross: 11662, label: 'taxLabel.standard 19 VAT DE' },
  { case: 'a rate with a decimal', country: 'FI', basis: { country: 'FI', rate: 25.5, kind: 'standard' }, tax: 2499, gross: 12299, label: 'taxLabel.standard 25.5 VAT FI' },
  { case: 'a GST country', country: 'AU', basis: { country: 'AU', rate: 10, kind: 'standard' }, tax: 980, gross: 10780, label: 'taxLabel.standard 10 GST AU' },
  { case: 'a country without VAT', country: 'US', basis: { country: 'US', rate: 0, kind: 'zero' }, tax: 0, gross: 9800, label: 'taxLabel.zero 0 VAT US' },
  { case: 'a country not in the table', country: 'BR', basis: { country: 'BR', rate: 0, kind: 'zero' }, tax: 0, gross: 9800, label: 'taxLabel.zero 0 VAT BR' },
  { case: 'no country', country: null, basis: { country: null, rate: 0, kind: 'noCountry' }, tax: 0, gross: 9800, label: 'taxLabel.noCountry 0 VAT ' },
  { case: 'an empty country', country: '  ', basis: { country: null, rate: 0, kind: 'noCountry' }, tax: 0, gross: 9800, label: 'taxLabel.noCountry 0 VAT ' },
  { case: 'an EU business of another member state', country: 'FR', taxId: 'FR 40 303 265 045', basis: { country: 'FR', rate: 0, kind: 'reverseCharge' }, tax: 0, gross: 9800, label: 'taxLabel.reverseCharge 0 VAT FR' },
  { case: 'a domestic business', country: 'DE', taxId: 'DE 811 907 980', basis: DE, tax: 1862, gross: 11662, label: 'taxLabel.standard 19 VAT DE' },
  { case: 'an EU business with another country\'s VAT id', country: 'FR', taxId: 'DE811907980', basis: { country: 'FR', rate: 20, kind: 'standard' }, tax: 1960, gross: 11760, label: 'taxLabel.standard 20 VAT FR' },
  { case: 'an EU business with a malformed VAT id', country: 'FR', taxId: 'FR123', basis: { country: 'FR', rate: 20, kind: 'standard' }, tax: 1960, gross: 11760, label: 'taxLabel.standard 20 VAT FR' },
  { case: 'a business outside the EU with a tax id', country: 'GB', taxId: 'GB123456789', basis: { country: 'GB', rate: 20, kind: 'standard' }, tax: 1960, gross: 11760, label: 'taxLabel.standard 20 VAT GB' },
];

describe('the one tax rule', () => {
  it.each(TABLE)('$case: $98.00 net gives its tax, gross and label', (row) => {
    const basis = taxBasis({ country: row.country, taxId: row.taxId ?? null, sellerTaxId: row.seller ?? SELLER });
    expect(basis).toEqual(row.basis);
    expect(applyTax(9800, basis)).toEqual({ net: 9800, tax: row.tax, gross: row.gross, basis: row.basis });
    const { key, values } = taxLabel(basis);
    expect(`${key} ${values.rate} ${values.name} ${values.country}`).toBe(row.label);
  });

  it('a country change moves every next bill to the new country: the net stays, tax and gross follow', () => {
    // Ordered without a country ($133 net), then one ordered in Germany ($98 net, $116.62 gross).
    const first = { total: '133.00', tax: '0.00', currency: 'USD' };
    const second = { total: '116.62', tax: '18.62', currency: 'USD' };
    const before = taxBasis({ country: null, sellerTaxId: SELLER });
    const after = taxBasis({ country: 'DE', sellerTaxId: SELLER });
    expect(sameBasis(before, after)).toBe(false);
    expect([netOf(first), netOf(second)]).toEqual([13300, 9800]);
    expect(rebill(first, after)).toEqual({ total: '158.27', tax: '25.27', currency: 'USD' });
    expect(rebill(second, after)).toEqual(second);
    // Back to no country: the stored net again, no tax.
    expect(rebill(second, before)).toEqual({ total: '98.00', tax: '0.00', currency: 'USD' });
    // And to another VAT country.
    expect(rebill(second, taxBasis({ country: 'FR', sellerTaxId: SELLER }))).toEqual({ total: '117.60', tax: '19.60', currency: 'USD' });
  });

  it('adds like with like, and refuses to add amounts on different bases', () => {
    const total = sumTaxed([applyTax(13300, DE), applyTax(9800, DE)], DE);
    expect(total).toEqual({ net: 23100, tax: 2527 + 1862, gross: 15827 + 11662, basis: DE });
    expect(() => sumTaxed([applyTax(13300, taxBasis({ country: null })), applyTax(9800, DE)], DE)).toThrow(RangeError);
    expect(sumTaxed([], DE)).toEqual({ net: 0, tax: 0, gross: 0, basis: DE });
  });

  it('gives the pricing engine\'s tax to the cent, for any net and country', () => {
    const plan = (cents: number): PricingPlan => ({ code: 'p', status: 'active', basePricing: { month: { price: { amount: (cents / 100).toFixed(2) } } }, regions: [{ refId: 'r', status: 'available', pricing: { month: { price: { amount: '0.00' } } } }], features: [] });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(null, 'DE', 'FI', 'CH', 'US', 'BR', 'AU'), (net, country) => {
        const priced = priceOrder(plan(net), { region: 'r' }, { country, sellerTaxId: SELLER });
        if (!priced.ok) throw new Error('refused');
        const taxed = applyTax(net, taxBasis({ country, sellerTaxId: SELLER }));
        expect([taxed.tax, taxed.gross]).toEqual([priced.quote.tax, priced.quote.total]);
      }),
    );
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => applyTax(1.5, DE)).toThrow(RangeError);
  });
});
