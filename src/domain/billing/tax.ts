import { decimalToCents, centsToDecimal } from '../money';
import { taxCents, taxTreatment, type TaxParties } from '../pricing/tax';

/**
 * The one tax rule every amount goes through, on every screen and in every charge: a net amount
 * and the company's current billing country (and tax id, for the reverse charge) give the net,
 * the tax with its rate and country, and the gross. Whether a sale is taxed at all is
 * `taxTreatment` (pricing/tax.ts); this file turns it into amounts and says which basis they
 * are on, so that amounts on different bases are never added or compared.
 */

/**
 * - `standard`: the country's rate is added ("incl. 19% VAT (DE)");
 * - `zero`: a country we charge no tax in ("no tax (US)");
 * - `reverseCharge`: an EU business accounts for the VAT itself ("excl. VAT, reverse charge (FR)");
 * - `noCountry`: no billing country yet, so no tax is charged ("excl. tax").
 */
export const TAX_KINDS = ['standard', 'zero', 'reverseCharge', 'noCountry'] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

/** What a company's amounts are taxed on: the same for every amount of one answer. */
export interface TaxBasis {
  country: string | null;
  /** Percent added, e.g. 19 or 25.5; 0 unless `standard`. */
  rate: number;
  kind: TaxKind;
}

/** A net amount with its tax on a basis, in integer cents: net + tax = gross. */
export interface Taxed {
  net: number;
  tax: number;
  gross: number;
  basis: TaxBasis;
}

/** The basis of a buyer (billing country, tax id) buying from the seller (SELLER_TAX_ID). */
export function taxBasis(parties: TaxParties): TaxBasis {
  const country = parties.country?.trim().toUpperCase() || null;
  if (!country) return { country: null, rate: 0, kind: 'noCountry' };
  const treatment = taxTreatment({ ...parties, country });
  if (treatment.kind === 'reverseCharge') return { country, rate: 0, kind: 'reverseCharge' };
  return { country, rate: treatment.rate, kind: treatment.rate > 0 ? 'standard' : 'zero' };
}

/** Net cents taxed on a basis, the tax rounded half up to the cent once (as the pricing engine does). */
export function applyTax(net: number, basis: TaxBasis): Taxed {
  if (!Number.isSafeInteger(net)) throw new RangeError(`net must be whole cents, got ${net}`);
  const tax = basis.kind === 'standard' ? taxCents(net, basis.rate) : 0;
  return { net, tax, gross: net + tax, basis };
}

export function sameBasis(a: TaxBasis, b: TaxBasis): boolean {
  return a.country === b.country && a.rate === b.rate && a.kind === b.kind;
}

/** Amounts on one basis added like with like (nets, taxes, grosses); amounts on another basis are refused. */
export function sumTaxed(items: readonly Taxed[], basis: TaxBasis): Taxed {
  const sum = { net: 0, tax: 0, gross: 0, basis };
  for (const item of items) {
    if (!sameBasis(item.basis, basis)) throw new RangeError('amounts on different tax bases cannot be added');
    sum.net += item.net;
    sum.tax += item.tax;
    sum.gross += item.gross;
  }
  return sum;
}

/** The net of a stored quote or bill (its total less its tax), in cents: what a new basis is applied to. */
export function netOf(amounts: { total: string; tax: string }): number {
  return decimalToCents(amounts.total) - decimalToCents(amounts.tax);
}

/** A stored quote billed on the company's current basis: the net is kept, tax and total follow the basis. */
export function rebill<Q extends { total: string; tax: string }>(quote: Q, basis: TaxBasis): Q {
  const taxed = applyTax(netOf(quote), basis);
  return { ...quote, tax: centsToDecimal(taxed.tax), total: centsToDecimal(taxed.gross) };
}

/** The tax's name in the buyer's country, for labels. */
export function taxName(country: string | null): 'VAT' | 'GST' | 'JCT' {
  if (country === 'AU' || country === 'NZ') return 'GST';
  if (country === 'JP') return 'JCT';
  return 'VAT';
}

/** How an amount on a basis is labelled: an i18n key under `taxLabel.` and its values. */
export function taxLabel(basis: TaxBasis): { key: `taxLabel.${TaxKind}`; values: { rate: string; name: string; country: string } } {
  return { key: `taxLabel.${basis.kind}`, values: { rate: String(basis.rate), name: taxName(basis.country), country: basis.country ?? '' } };
}
