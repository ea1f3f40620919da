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

/** Tax on a net amount in cents, rounded half up to the cent. */
export function taxCents(netCents: number, ratePercent: number): number {
  if (netCents <= 0) return 0;
  return divRoundHalfUp(netCents * percentToBasisPoints(ratePercent), 10_000);
}
