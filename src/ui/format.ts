/** Number and price formats of SPEC §9: en-US, US dollars, 0 as 'Free', K and M abbreviations. */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** `4900` → `$49`, `10864` → `$108.64`; 0 → null so the caller shows its 'Free' string. */
export function formatCents(cents: number): string | null {
  if (cents === 0) return null;
  return cents % 100 === 0 ? usdWhole.format(cents / 100) : usd.format(cents / 100);
}

/** `500` → `500`, `1000` → `1K`, `2500` → `2.5K`, `2500000` → `2.5M`. */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  const [div, suffix] = abs >= 1_000_000 ? [1_000_000, 'M'] : abs >= 1_000 ? [1_000, 'K'] : [1, ''];
  const value = n / div;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(1))}${suffix}`;
}
