import { taxLabel, taxName, type TaxBasis } from '../domain/billing/tax';
import type { TaxedAmount } from '../domain/billing/schemas';
import { formatAmount } from './format';
import '../taxI18n';

type T = (key: string, options?: Record<string, unknown>) => string;

/** A bill's amounts keep their cents. */
const BILL = { cents: 'always' } as const;

/** What an amount on this basis includes: "incl. 19% VAT (DE)", "excl. tax"... */
export function taxLabelText(basis: TaxBasis, t: T): string {
  const { key, values } = taxLabel(basis);
  return t(key, values);
}

/** A gross amount with what it includes: "$116.62 incl. 19% VAT (DE)". */
export function grossText(gross: string, basis: TaxBasis, t: T): string {
  return `${formatAmount(gross, BILL)} ${taxLabelText(basis, t)}`;
}

/** An answer's amount (net, tax, gross on a basis) as a person reads it. */
export function taxedText(amount: TaxedAmount, t: T): string {
  return grossText(amount.gross, amount.basis, t);
}

/** A summary's tax line label: "VAT 19% (DE)", "VAT: reverse charge (FR)", "Tax (no billing country set)". */
export function taxLineText(basis: TaxBasis, t: T): string {
  const { values } = taxLabel(basis);
  return t(`taxLine.${basis.kind}`, values);
}

/** A taxed amount's parts, when it has tax: "$98.00 excl. tax + $18.62 VAT"; '' without tax. */
export function taxBreakdownText(amount: TaxedAmount, t: T): string {
  if (amount.basis.kind !== 'standard') return '';
  return t('taxBreakdown', { net: formatAmount(amount.net, BILL), tax: formatAmount(amount.tax, BILL), name: taxName(amount.basis.country) });
}
