/** Number and price formats of SPEC §9: en-US, US dollars, 0 as 'Free', K and M abbreviations. */
import { parsePlanCode } from '../domain/plans/planCode';
import { formatDollars, formatMoney } from '../domain/money';

/** `4900` → `$49`, `10864` → `$108.64`; 0 → null so the caller shows its 'Free' string. */
export function formatCents(cents: number): string | null {
  if (cents === 0) return null;
  return formatDollars(cents, cents % 100 !== 0);
}

/**
 * A wire amount (a decimal string, `src/domain/money`) as en-US dollars: `"221.96"` → `$221.96`,
 * `"49.00"` → `$49`; with `cents: 'always'` (a bill's lines) `"49.00"` → `$49.00`. 0 is `$0`.
 */
export function formatAmount(amount: string, options: { cents?: 'some' | 'always' } = {}): string {
  return formatMoney(amount, options);
}

/** `500` → `500`, `1000` → `1K`, `2500` → `2.5K`, `2500000` → `2.5M`. */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  const [div, suffix] = abs >= 1_000_000 ? [1_000_000, 'M'] : abs >= 1_000 ? [1_000, 'K'] : [1, ''];
  const value = n / div;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(1))}${suffix}`;
}

/**
 * The last resort of the label table: a code no i18n key names yet (a vendor's new status) read as
 * words, `past_due` → `Past due`, `user.signIn` → `User sign in`, rather than shown raw.
 */
/** A card's brand as people write it: "visa" → "Visa". */
export function cardBrand(brand: string): string {
  return brand.charAt(0).toUpperCase() + brand.slice(1);
}

export function codeAsWords(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[._\-\s]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A plan code as a person reads it: `v3.mau_25_000_gcp.base` → `25K MAU · GCP`; an unknown shape as words. */
export function planCodeLabel(code: string): string {
  const plan = parsePlanCode(code);
  return plan ? `${abbreviateNumber(plan.mau)} MAU · ${plan.provider.toUpperCase()}` : codeAsWords(code);
}
