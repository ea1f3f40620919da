import type { Availability, BillingCycle, Status } from '../constants';
import type { FieldErrors } from '../errors';

/**
 * Input shapes are structural subsets of the API's PlanDto, so the server and the browser pass
 * plans straight in. Prices are monthly decimal strings, as on the wire.
 */
export interface MonthlyPricing {
  month: { price: { amount: string } };
}

export interface PlanOption {
  refId: string;
  status: Availability;
  pricing: MonthlyPricing;
}

export interface PricingPlan {
  code: string;
  status: Status;
  basePricing: MonthlyPricing;
  regions: readonly PlanOption[];
  features: readonly PlanOption[];
}

/** What is being bought: every option is a refId from the plan's regions[] or features[]. */
export interface PricingOrder {
  region: string;
  /** Features and capabilities; duplicates are charged once. */
  features?: readonly string[];
  domain?: string | null;
  retention?: string | null;
  backup?: string | null;
  /** Default 'month'. */
  cycle?: BillingCycle;
}

/** A discount code already looked up by the caller. `value` is a percent or, for 'fixed', cents. */
export interface DiscountInput {
  code: string;
  kind: 'percent' | 'fixed';
  value: number;
  /** ISO date-time; the code is expired from this instant on. */
  expiresAt?: string;
  maxUses?: number;
  uses: number;
}

export interface PricingOptions {
  discount?: DiscountInput | null;
  /** Required with a discount: the engine never reads the clock itself. */
  now?: Date;
  /** ISO 3166-1 alpha-2 billing country; unknown or missing means no tax. */
  country?: string | null;
  /** The buyer's tax id and the seller's (SELLER_TAX_ID): with them an EU business buys reverse charged (taxTreatment). */
  taxId?: string | null;
  sellerTaxId?: string | null;
  /** Account credit in cents, default 0. */
  credit?: number;
}

export type DiscountRefusal = 'pricing.discountExpired' | 'pricing.discountExhausted' | 'pricing.discountInvalid';

export interface DiscountResult {
  code: string;
  applied: boolean;
  /** Cents taken off the subtotal; 0 when not applied. */
  amount: number;
  reason: DiscountRefusal | null;
}

export type LineKind = 'base' | 'region' | 'feature' | 'domain' | 'retention' | 'backup';

export interface QuoteLine {
  kind: LineKind;
  /** null for the plan's base price. */
  refId: string | null;
  /** Monthly cents of this option. */
  monthly: number;
  /** Cents per cycle; lines add up to the subtotal exactly. */
  amount: number;
}

/**
 * All amounts in integer cents, per cycle, with the payment provider's meaning:
 * total = subtotal − discount + tax; credit is what account credit covers; balance is still due.
 */
export interface Quote {
  cycle: BillingCycle;
  currency: 'USD';
  /** MAU tier from the plan code, null when the code carries none. */
  mau: number | null;
  lines: QuoteLine[];
  /** Sum of the lines' monthly prices, before the yearly discount. */
  monthly: number;
  subtotal: number;
  discount: number;
  discountResult: DiscountResult | null;
  /** Percent applied, e.g. 19 or 25.5. */
  taxRate: number;
  /** No VAT charged: the buyer, an EU business, accounts for it (taxTreatment). */
  reverseCharge: boolean;
  tax: number;
  total: number;
  credit: number;
  balance: number;
}

export type PricingResult = { ok: true; quote: Quote } | { ok: false; errors: FieldErrors };

/** The breakdown as the API answers it: decimal strings. */
export interface WireQuote {
  total: { amount: string; currency: 'USD' };
  subtotal: string;
  tax: string;
  discount: string;
  credit: string;
  balance: string;
}
