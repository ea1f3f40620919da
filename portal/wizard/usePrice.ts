import { useEffect, useMemo, useState } from 'react';
import { getPricing } from '../../dataProvider/catalogue';
import { applyTax, type TaxBasis } from '../../src/domain/billing/tax';
import { centsToDecimal, decimalToCents } from '../../src/domain/money';
import type { Quote } from '../../src/domain/pricing';
import { localQuote, type WizardOptions } from './options';
import { orderRequest } from './orderRequest';
import { wizard, type WizardState } from './store';

/** SPEC §4: the server's confirmation waits until the customer pauses. */
export const PRICE_CONFIRM_DEBOUNCE_MS = 400;

/** Before the server names the company's basis (and always for a visitor): no tax, "excl. tax". */
const BEFORE_TAX: TaxBasis = { country: null, rate: 0, kind: 'noCountry' };

/** The order's price on the company's tax basis, the basis with it so the total says what it includes. */
export type TaxedQuote = Quote & { basis: TaxBasis };

/** The engine's quote (before tax) taxed by the one tax rule on a basis. */
function taxedQuote(quote: Quote, basis: TaxBasis): TaxedQuote {
  const taxed = applyTax(quote.subtotal - quote.discount, basis);
  return { ...quote, taxRate: basis.rate, tax: taxed.tax, total: taxed.gross, balance: taxed.gross - quote.credit, basis };
}

/**
 * The order's price: at once from the shared engine on every change and period switch, then
 * confirmed by POST /deployments/pricing; a different answer or a failure marks it failed, which
 * shows SPEC §8's price-calculation-failed notice. Naming the company (signed in), the answer
 * says its tax basis, and the total is on it from then on.
 */
export function usePrice(options: WizardOptions | null, state: WizardState, pricingCall = getPricing, company: string | null = null): TaxedQuote | null {
  const order = state.subscription;
  const cycle = state.activePaymentPeriod;
  const [basis, setBasis] = useState<TaxBasis>(BEFORE_TAX);
  const net = useMemo(() => (options ? localQuote(options, order, cycle) : null), [options, order, cycle]);
  const quote = useMemo(() => (net ? taxedQuote(net, basis) : null), [net, basis]);
  const request = useMemo(
    () => {
      if (!order) return null;
      const { plan, planConfig } = orderRequest(order, cycle);
      return { plan, planConfig, payment: { term: { cycle } }, ...(company ? { company } : {}) };
    },
    [order, cycle, company],
  );
  // Before tax: the basis arriving with the answer must not ask the server again.
  const total = net ? centsToDecimal(net.total) : null;

  useEffect(() => {
    if (!request || total === null) return;
    wizard.update({ pricing: { total, currency: 'USD', isDiscountApplied: false, discountCode: null, discountedTotal: null, check: 'pending' } });
    let live = true;
    const timer = setTimeout(() => {
      pricingCall(request).then(
        (answer) => {
          if (!live) return;
          setBasis(answer.taxBasis);
          const agrees = answer.total.amount === centsToDecimal(applyTax(decimalToCents(total), answer.taxBasis).gross);
          wizard.update((s) => ({ pricing: s.pricing && { ...s.pricing, check: agrees ? 'confirmed' : 'failed', isDiscountApplied: answer.isDiscountApplied, discountCode: answer.discountCode, discountedTotal: { subtotal: answer.subtotal, tax: answer.tax, total: answer.total.amount, discount: answer.discount, credit: answer.credit, balance: answer.balance } } }));
        },
        () => {
          if (live) wizard.update((s) => ({ pricing: s.pricing && { ...s.pricing, check: 'failed' } }));
        },
      );
    }, PRICE_CONFIRM_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [request, total, pricingCall]);

  return quote;
}
