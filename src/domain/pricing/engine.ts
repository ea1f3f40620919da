import { YEARLY_DISCOUNT_PERCENT } from '../constants';
import type { BillingCycle } from '../constants';
import type { FieldErrors } from '../errors';
import { centsToDecimal, decimalToCents } from '../money';
import { mauFromPlanCode } from '../plans/planCode';
import { applyDiscount } from './discount';
import { divRoundHalfUp } from './rounding';
import { taxCents, taxTreatment } from './tax';
import type { LineKind, MonthlyPricing, PlanOption, PricingOptions, PricingOrder, PricingPlan, PricingResult, QuoteLine, WireQuote, Quote } from './types';

/** Monthly cents of a wire price. A negative or malformed catalogue price is a data bug: it throws. */
export function priceCents(pricing: MonthlyPricing): number {
  const cents = decimalToCents(pricing.month.price.amount);
  if (cents < 0) throw new RangeError(`negative catalogue price: ${pricing.month.price.amount}`);
  return cents;
}

/** Cents per cycle for a monthly amount: a year is 12 months less the yearly discount, rounded half up. */
export function cycleCents(monthlyCents: number, cycle: BillingCycle): number {
  return cycle === 'year' ? divRoundHalfUp(monthlyCents * 12 * (100 - YEARLY_DISCOUNT_PERCENT), 100) : monthlyCents;
}

export type OptionList = 'region' | 'feature';

/** The plan's entry for a region or feature refId, undefined when the plan does not list it. */
export function findOption(plan: PricingPlan, list: OptionList, refId: string): PlanOption | undefined {
  return (list === 'region' ? plan.regions : plan.features).find((o) => o.refId === refId);
}

/** Whether an option can be chosen with this plan (status 'available'). */
export function isOptionAvailable(plan: PricingPlan, list: OptionList, refId: string): boolean {
  return findOption(plan, list, refId)?.status === 'available';
}

/** Monthly cents of one option in this plan, null when the plan does not list it. */
export function optionMonthlyCents(plan: PricingPlan, list: OptionList, refId: string): number | null {
  const option = findOption(plan, list, refId);
  return option ? priceCents(option.pricing) : null;
}

interface Pick {
  kind: Exclude<LineKind, 'base'>;
  field: string;
  refId: string;
}

function picksOf(order: PricingOrder): Pick[] {
  const slots = (['domain', 'retention', 'backup'] as const).flatMap((kind) => {
    const refId = order[kind];
    return refId ? [{ kind, field: kind, refId }] : [];
  });
  // A refId is charged once, even if it is listed twice or also fills a domain/retention/backup slot.
  const taken = new Set(slots.map((s) => s.refId));
  const features = [...new Set(order.features ?? [])].filter((id) => !taken.has(id));
  return [
    { kind: 'region', field: 'region', refId: order.region },
    ...features.map((refId) => ({ kind: 'feature' as const, field: 'features', refId })),
    ...slots,
  ];
}

/**
 * Prices an order against a plan, or refuses it with field errors (i18n keys). Pure: the same
 * inputs give the same cents in the browser and on the server.
 */
export function priceOrder(plan: PricingPlan, order: PricingOrder, options: PricingOptions = {}): PricingResult {
  const { discount = null, now, country = null, taxId = null, sellerTaxId = null, credit: creditInput = 0 } = options;
  if (!Number.isSafeInteger(creditInput) || creditInput < 0) throw new RangeError(`credit must be non-negative cents, got ${creditInput}`);
  if (discount && !now) throw new TypeError('priceOrder needs `now` to judge a discount');

  const errors: FieldErrors = {};
  const refuse = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };
  if (plan.status !== 'active') refuse('plan', 'pricing.planInactive');

  const monthlyLines: Omit<QuoteLine, 'amount'>[] = [{ kind: 'base', refId: null, monthly: priceCents(plan.basePricing) }];
  for (const { kind, field, refId } of picksOf(order)) {
    const list = kind === 'region' ? 'region' : 'feature';
    const option = findOption(plan, list, refId);
    if (!option) refuse(field, list === 'region' ? 'pricing.unknownRegion' : 'pricing.unknownFeature');
    else if (option.status !== 'available') refuse(field, list === 'region' ? 'pricing.regionNotAvailable' : 'pricing.featureNotAvailable');
    else monthlyLines.push({ kind, refId, monthly: priceCents(option.pricing) });
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  // Cumulative rounding: each line gets the rounded running total's step, so lines sum to the subtotal.
  const cycle = order.cycle ?? 'month';
  let monthly = 0;
  let previous = 0;
  const lines = monthlyLines.map((line): QuoteLine => {
    monthly += line.monthly;
    const running = cycleCents(monthly, cycle);
    const amount = running - previous;
    previous = running;
    return { ...line, amount };
  });

  const subtotal = cycleCents(monthly, cycle);
  const discountResult = discount && now ? applyDiscount(discount, subtotal, now) : null;
  const discountCents = discountResult?.amount ?? 0;
  const treatment = taxTreatment({ country, taxId, sellerTaxId });
  const rate = treatment.rate;
  const tax = taxCents(subtotal - discountCents, rate);
  const total = subtotal - discountCents + tax;
  const credit = Math.min(creditInput, total);
  const quote: Quote = {
    cycle,
    currency: 'USD',
    mau: mauFromPlanCode(plan.code),
    lines,
    monthly,
    subtotal,
    discount: discountCents,
    discountResult,
    taxRate: rate,
    reverseCharge: treatment.kind === 'reverseCharge',
    tax,
    total,
    credit,
    balance: total - credit,
  };
  return { ok: true, quote };
}

/** The quote's breakdown as the API answers it. */
export function toWire(quote: Quote): WireQuote {
  return {
    total: { amount: centsToDecimal(quote.total), currency: quote.currency },
    subtotal: centsToDecimal(quote.subtotal),
    tax: centsToDecimal(quote.tax),
    discount: centsToDecimal(quote.discount),
    credit: centsToDecimal(quote.credit),
    balance: centsToDecimal(quote.balance),
  };
}
