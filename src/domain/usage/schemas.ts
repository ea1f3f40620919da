import { z } from 'zod';
import { BILLING_CYCLES } from '../constants';
import { mauAlertSettingsSchema, mauForecastSchema } from './forecast';
import { taxBasisSchema, taxedAmountSchema } from '../billing/schemas';

/** Management → Billing: where each server's MAU is heading and the bill it leads to. */

export const nextTierSchema = z.object({
  plan: z.object({ _id: z.string(), name: z.string(), code: z.string(), mau: z.number() }),
  /** The server's bill per cycle on that tier (the pricing engine, same options), on the company's tax basis. */
  total: taxedAmountSchema,
  /** What the upgrade costs now, prorated for the rest of the paid period, on the same basis. */
  dueNow: taxedAmountSchema,
});

export const serverUsageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  project: z.string(),
  plan: z.object({ _id: z.string(), name: z.string(), code: z.string(), mau: z.number() }),
  used: z.number(),
  limit: z.number(),
  forecast: mauForecastSchema.nullable(),
  cycle: z.enum(BILLING_CYCLES),
  /** The next renewal's amount: past the tier nothing is added (PAST_TIER_RULE), so it is the plan's. */
  nextBill: taxedAmountSchema,
  nextBillAt: z.string().nullable(),
  overTier: z.boolean(),
  projectedOver: z.boolean(),
  /** The smallest larger tier the company can order, when the server is over or heading over its own. */
  nextTier: nextTierSchema.nullable(),
});
export type ServerUsage = z.infer<typeof serverUsageSchema>;

export const companyUsageSchema = z.object({
  servers: z.array(serverUsageSchema),
  /** Sum of the servers' next bills, nets with nets and taxes with taxes, all on `taxBasis`. */
  total: taxedAmountSchema,
  /** The company's current billing country and rate: every amount of this answer is on it. */
  taxBasis: taxBasisSchema,
  currency: z.literal('USD'),
  alerts: mauAlertSettingsSchema,
});
export type CompanyUsage = z.infer<typeof companyUsageSchema>;

export const usageParamsSchema = z.object({ id: z.string().max(64) });
export const mauAlertsBodySchema = mauAlertSettingsSchema;
