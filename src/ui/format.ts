/** Number and price formats of SPEC §9: en-US, US dollars, 0 as 'Free', K and M abbreviations. */

/**
 * Whole cents as en-US dollars, written out rather than through Intl.NumberFormat: a page's first
 * number format costs Chromium 13 to 23 ms (its locale data), a long task on a phone on the pages
 * that show prices first (pricing, the wizard). format.test.ts holds it to Intl's output.
 */
function dollars(cents: number, withCents: boolean): string {
  const rounded = Math.round(Math.abs(cents));
  const whole = String(Math.floor(rounded / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${cents < 0 ? '-' : ''}$${whole}${withCents ? `.${String(rounded % 100).padStart(2, '0')}` : ''}`;
}

/** `4900` → `$49`, `10864` → `$108.64`; 0 → null so the caller shows its 'Free' string. */
export function formatCents(cents: number): string | null {
  if (cents === 0) return null;
  return dollars(cents, cents % 100 !== 0);
}

/** `500` → `500`, `1000` → `1K`, `2500` → `2.5K`, `2500000` → `2.5M`. */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  const [div, suffix] = abs >= 1_000_000 ? [1_000_000, 'M'] : abs >= 1_000 ? [1_000, 'K'] : [1, ''];
  const value = n / div;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(1))}${suffix}`;
}

/** A decimal amount of the API as a bill writes it, always with cents: `"221.96"` → `$221.96`. */
export function formatAmount(amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  return dollars((Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'))) * (match[1] ? -1 : 1), true);
}
