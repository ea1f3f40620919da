/** The pricing engine: pure and isomorphic, shared by the calculator and POST /deployments/pricing. */
export { applyDiscount } from './discount';
export { cycleCents, findOption, isOptionAvailable, optionMonthlyCents, priceCents, priceOrder, toWire } from './engine';
export type { OptionList } from './engine';
export { EU_COUNTRIES, TAX_RATES, taxCents, taxRate, taxTreatment, vatIdCountry } from './tax';
export type { TaxParties, TaxTreatment } from './tax';
export type * from './types';
