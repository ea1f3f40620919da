import { useEffect, useMemo } from 'react';
import { getPricing } from '../../dataProvider/catalogue';
import { centsToDecimal } from '../../src/domain/money';
import type { Quote } from '../../src/domain/pricing';
import { localQuote, orderFeatures, type WizardOptions } from './options';
import { wizard, type WizardState } from './store';

/** SPEC §4: the server's confirmation waits until the customer pauses. */
export const PRICE_CONFIRM_DEBOUNCE_MS = 400;

/**
 * The order's price: at once from the shared engine on every change and period switch, then
 * confirmed by POST /deployments/pricing; a different answer or a failure marks it failed, which
 * shows SPEC §8's price-calculation-failed notice.
 */
export function usePrice(options: WizardOptions | null, state: WizardState, pricingCall = getPricing): Quote | null {
  const order = state.subscription;
  const cycle = state.activePaymentPeriod;
  const quote = useMemo(() => (options ? localQuote(options, order, cycle) : null), [options, order, cycle]);
  const request = useMemo(
    () => (order ? { plan: order.planId, planConfig: { region: order.planConfig.region, size: order.planConfig.size ?? undefined, features: orderFeatures(order), provider: order.planConfig.provider as 'gcp' }, payment: { term: { cycle } } } : null),
    [order, cycle],
  );
  const total = quote ? centsToDecimal(quote.total) : null;

  useEffect(() => {
    if (!request || total === null) return;
    wizard.update({ pricing: { total, currency: 'USD', isDiscountApplied: false, discountCode: null, discountedTotal: null, check: 'pending' } });
    let live = true;
    const timer = setTimeout(() => {
      pricingCall(request).then(
        (answer) => {
          if (!live) return;
          const agrees = answer.total.amount === total;
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
