import { z } from 'zod';
import { BILLING_CYCLES, PROVIDER_CODES } from '../constants';
import { taxBasisSchema } from '../billing/schemas';

const id = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid');

/** Body of POST /deployments/pricing (SPEC §7): the order as the wizard and calculator hold it. */
export const pricingRequestSchema = z.object({
  _id: z.string().max(64).optional(),
  plan: id,
  planConfig: z.object({
    /** Every chosen option's refId: features, and the domain, retention and backup choices. */
    features: z.array(id).max(100, 'validation.invalid').default([]),
    region: id,
    size: id.optional(),
    provider: z.enum(PROVIDER_CODES, { error: 'validation.invalid' }).optional(),
  }),
  payment: z.object({
    term: z.object({ cycle: z.enum(BILLING_CYCLES, { error: 'validation.invalid' }) }),
  }),
  discountCode: z.string().trim().max(64, 'validation.invalid').optional(),
  /** The ordering company (signed in): its billing country sets the tax. Without it, prices are before tax. */
  company: z.string().trim().max(64, 'validation.invalid').optional(),
});
export type PricingRequest = z.infer<typeof pricingRequestSchema>;

const amountSchema = z.object({ amount: z.string(), currency: z.literal('USD') });

/** Answer of POST /deployments/pricing: the engine's quote as decimal strings (SPEC §7). */
export const pricingAnswerSchema = z.object({
  total: amountSchema,
  subtotal: z.string(),
  tax: z.string(),
  discount: z.string(),
  credit: z.string(),
  balance: z.string(),
  /** What `tax` is: the company's billing country and rate; no company named, before tax (`noCountry`). */
  taxBasis: taxBasisSchema,
  cycle: z.enum(BILLING_CYCLES),
  monthly: z.string(),
  isDiscountApplied: z.boolean(),
  discountCode: z.string().nullable(),
  lines: z.array(z.object({ kind: z.string(), refId: z.string().nullable(), amount: z.string() })),
});
export type PricingAnswer = z.infer<typeof pricingAnswerSchema>;
