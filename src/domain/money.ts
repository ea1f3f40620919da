/** Money is integer cents inside and a decimal string ("29.00") on the wire. */

export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

export function decimalToCents(amount: string): number {
  const match = DECIMAL.exec(amount.trim());
  if (!match || match[2] === undefined) throw new RangeError(`not a money amount: "${amount}"`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/**
 * Whole cents as en-US dollars (`22196` → `$221.96`; with `withCents` false, `4900` → `$49`),
 * written out rather than through Intl.NumberFormat: a page's first number format costs Chromium
 * 13 to 23 ms (its locale data). The one money format of screens, mails and invoices.
 */
export function formatDollars(cents: number, withCents: boolean): string {
  const rounded = Math.round(Math.abs(cents));
  const whole = String(Math.floor(rounded / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${cents < 0 ? '-' : ''}$${whole}${withCents ? `.${String(rounded % 100).padStart(2, '0')}` : ''}`;
}

/** A wire amount as dollars: `"221.96"` → `$221.96`, `"49.00"` → `$49` (`$49.00` with `cents: 'always'`). */
export function formatMoney(amount: string, { cents = 'some' }: { cents?: 'some' | 'always' } = {}): string {
  const value = decimalToCents(amount);
  return formatDollars(value, cents === 'always' || value % 100 !== 0);
}
