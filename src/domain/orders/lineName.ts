import type { LineKind } from '../pricing/types';

/**
 * What an order's line is called, the one rule for the order, the checkout, the payment vendor's
 * items and the invoice: the catalogue's name, said with its kind where the name alone would not
 * say what was bought ("Data retention: 6 months", "Region: Frankfurt, Germany"); a plan,
 * feature, domain or backup name says it already ("Growth", "Funnels", "Daily backup").
 */
const KIND_LABELS: Partial<Record<LineKind, string>> = { region: 'Region', retention: 'Data retention' };

export function orderLineName(kind: string, name: string): string {
  const label = KIND_LABELS[kind as LineKind];
  return label ? `${label}: ${name}` : name;
}
