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
