import { z } from 'zod';
import { AVAILABILITY, FEATURE_TYPES, PLAN_KINDS, PLAN_TYPES, STATUSES } from '../constants';

/** Wire contracts of the plan catalogue (SPEC §3 plans, configurables): answers, not forms. */
const monthlyPriceSchema = z.object({ month: z.object({ price: z.object({ amount: z.string(), currency: z.literal('USD') }) }) });

export const planOptionSchema = z.object({ refId: z.string(), status: z.enum(AVAILABILITY), pricing: monthlyPriceSchema });
export type PlanOptionDto = z.infer<typeof planOptionSchema>;

export const planSchema = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  status: z.enum(STATUSES),
  priority: z.number(),
  type: z.enum(PLAN_TYPES),
  kind: z.enum(PLAN_KINDS),
  provider: z.object({ _id: z.string(), code: z.string() }),
  basePricing: monthlyPriceSchema,
  regions: z.array(planOptionSchema),
  features: z.array(planOptionSchema),
});
export type PlanDto = z.infer<typeof planSchema>;

export const configurablesSchema = z.object({
  providers: z.array(z.object({ _id: z.string(), code: z.string(), name: z.string() })),
  regions: z.array(z.object({ _id: z.string(), code: z.string(), name: z.string(), order: z.number(), price: z.string(), isAvailable: z.boolean() })),
  sizes: z.array(z.object({ _id: z.string(), code: z.string(), size: z.object({ value: z.number() }), order: z.number() })),
  features: z.array(
    z.object({
      _id: z.string(),
      code: z.string(),
      type: z.enum(FEATURE_TYPES),
      name: z.string(),
      description: z.string(),
      order: z.number(),
      price: z.string(),
      status: z.enum(STATUSES),
      isAvailable: z.boolean(),
    }),
  ),
});
export type ConfigurablesDto = z.infer<typeof configurablesSchema>;
