/**
 * How an amount says what it includes (`taxLabel`, src/domain/billing/tax.ts): the same words on
 * every screen that shows money. They load with those screens (src/taxI18n.ts).
 */
export const taxEn = {
  taxLabel: {
    standard: 'incl. {{rate}}% {{name}} ({{country}})',
    zero: 'no tax ({{country}})',
    reverseCharge: 'excl. VAT, reverse charge ({{country}})',
    noCountry: 'excl. tax',
  },
  // A summary's tax line (the order summary, the payment step).
  taxLine: {
    standard: '{{name}} {{rate}}% ({{country}})',
    zero: 'Tax ({{country}})',
    reverseCharge: 'VAT: reverse charge ({{country}})',
    noCountry: 'Tax (no billing country set)',
  },
  taxNet: 'excl. tax',
  taxPricesBefore: 'prices above excl. tax',
  taxBreakdown: '{{net}} excl. tax + {{tax}} {{name}}',
} as const;
