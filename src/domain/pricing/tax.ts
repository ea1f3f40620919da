import { divRoundHalfUp, percentToBasisPoints } from './rounding';

/**
 * Standard VAT/GST rates in percent by ISO 3166-1 alpha-2 country code. A demo table: the US
 * (no federal sales tax) and every unlisted country pay no tax.
 */
export const TAX_RATES: Readonly<Record<string, number>> = Object.freeze({
  AT: 20,
  BE: 21,
  DE: 19,
  DK: 25,
  ES: 21,
  FI: 25.5,
  FR: 20,
  IE: 23,
  IT: 22,
  LU: 17,
  NL: 21,
  PL: 23,
  PT: 23,
  SE: 25,
  GB: 20,
  NO: 25,
  CH: 8.1,
  AU: 10,
  NZ: 15,
  JP: 10,
  US: 0,
});

/** Tax rate in percent for a billing country; 0 when unknown or missing. */
export function taxRate(country: string | null | undefined): number {
  if (!country) return 0;
  const key = country.trim().toUpperCase();
  return Object.hasOwn(TAX_RATES, key) ? (TAX_RATES[key] ?? 0) : 0;
}

/** The member states of the EU, whose businesses account for VAT themselves on services bought from another country. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);

/**
 * The shape of each member state's VAT identification number after its prefix (the prefix is the
 * country code, but EL for Greece). A format check, as the order form can make it: whether the
 * number is registered is VIES's to say, which the operator checks before relying on it.
 */
const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The EU country a VAT id belongs to (its prefix; EL is Greece), when it is a well-formed EU VAT id; else null. */
export function vatIdCountry(taxId: string | null | undefined): string | null {
  if (!taxId) return null;
  const id = taxId.replace(/[\s.-]/g, '').toUpperCase();
  const prefix = id.slice(0, 2);
  const format = VAT_FORMATS[prefix];
  if (!format || !format.test(id.slice(2))) return null;
  return prefix === 'EL' ? 'GR' : prefix;
}

/** Who a sale is between, as far as tax goes: the buyer's billing country and tax id, the seller's tax id. */
export interface TaxParties {
  country: string | null | undefined;
  taxId?: string | null;
  /** The seller's tax id (SELLER_TAX_ID): an EU VAT id places the seller in its country. */
  sellerTaxId?: string | null;
}

/**
 * How a sale is taxed, the one rule the quote, the charge and the invoice all follow:
 * - `reverseCharge`: a business in an EU country with a VAT id of that country, buying from a
 *   seller whose EU VAT id is of another member state: no VAT is charged, the buyer accounts for
 *   it (Article 196, Council Directive 2006/112/EC), and the invoice says so;
 * - `standard`: the billing country's rate (0 when unknown or missing), also when the seller has
 *   no EU VAT id (a demo, or a seller outside the EU: the operator's tax advice decides that case).
 */
export type TaxTreatment = { kind: 'standard'; rate: number } | { kind: 'reverseCharge'; rate: 0 };

export function taxTreatment({ country, taxId, sellerTaxId }: TaxParties): TaxTreatment {
  const buyer = country?.trim().toUpperCase() ?? '';
  const seller = vatIdCountry(sellerTaxId);
  if (EU_COUNTRIES.has(buyer) && vatIdCountry(taxId) === buyer && seller !== null && seller !== buyer) return { kind: 'reverseCharge', rate: 0 };
  return { kind: 'standard', rate: taxRate(country) };
}

/** Tax on a net amount in cents, rounded half up to the cent. */
export function taxCents(netCents: number, ratePercent: number): number {
  if (netCents <= 0) return 0;
  return divRoundHalfUp(netCents * percentToBasisPoints(ratePercent), 10_000);
}
