import { COUNTRY_CODES, type CountryCode } from '../../src/domain/countries';

export interface CountryOption {
  code: CountryCode;
  name: string;
}

let cached: readonly CountryOption[] | null = null;

/** The billing countries with their English names, sorted by name (built once, on first use). */
export function countryOptions(): readonly CountryOption[] {
  if (!cached) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    cached = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  }
  return cached;
}
