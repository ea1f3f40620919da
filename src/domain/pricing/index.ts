/** The pricing engine: pure and isomorphic, shared by the calculator and POST /deployments/pricing. */
export { applyDiscount } from './discount';
export { cycleCents, findOption, isOptionAvailable, optionMonthlyCents, priceCents, priceOrder, toWire } from './engine';
export type { OptionList } from './engine';
export { TAX_RATES, taxCents, taxRate } from './tax';
export type * from './types';
