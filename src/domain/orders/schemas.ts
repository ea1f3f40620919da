import { z } from 'zod';
import { BILLING_CYCLES, LIMITS, PAYMENT_PROVIDERS, PROVIDER_CODES } from '../constants';
import { signUpSchema } from '../auth/schemas';
import { noHtml } from '../validation';
import { taxBasisSchema, taxedAmountSchema } from '../billing/schemas';

/**
 * Orders (SPEC §3 Deployment, Create payload, Payment params; §7 Deployments): the wire contracts
 * of POST/PUT /deployments, the preview and review calls and the billing reads.
 */

/** SPEC §3 deployment status catalogue ('comm error' is the state of waiting for the cloud's answer). */
export const DEPLOYMENT_STATUSES = [
  'comm_error',
  'provisioned',
  'initializing',
  'modifying',
  'restoring',
  'restarting',
  'paused',
  'running',
  'deleted',
  'error_initializing',
  'error_modifying',
  'error_restoring',
  'error_restarting',
  'error_pausing',
  'error_deleting',
] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/**
 * A new paid order is 'provisioned' (recorded, waiting for its payment); a free order, or a paid
 * one once its payment is confirmed, is 'initializing' (settled, to be provisioned).
 */
export const NEW_ORDER_STATUS = { awaitingPayment: 'provisioned', settled: 'initializing' } as const satisfies Record<string, DeploymentStatus>;

/** 'pending' until the first payment is confirmed by a verified webhook; the rest are Paddle's. */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'past_due', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const id = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid');

export const serverNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(LIMITS.nameMin, 'validation.nameLength')
  .max(LIMITS.nameMax, 'validation.nameLength')
  .refine(noHtml, 'validation.noHtml');

/** A catalogue option's id: the database looks options up by uuid, so anything else is refused here. */
const optionId = z.string({ error: 'validation.required' }).trim().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'validation.invalid');

export const planConfigSchema = z.object({
  region: id,
  size: id.optional(),
  /** Every chosen option's refId: features, and the domain, retention and backup choices. */
  features: z.array(optionId).max(100, 'validation.invalid').default([]),
  provider: z.enum(PROVIDER_CODES, { error: 'validation.invalid' }).optional(),
});
export type PlanConfig = z.infer<typeof planConfigSchema>;

/**
 * A free server's change to a paid plan, kept apart from the server until its first payment is
 * confirmed: until then the server keeps (and is sized, restored and provisioned from) the plan
 * it has.
 */
export interface PendingPlanChange {
  planId: string;
  planCode: string;
  planConfig: PlanConfig;
  paymentCycle: (typeof BILLING_CYCLES)[number];
  free: boolean;
}

const cycle = z.enum(BILLING_CYCLES, { error: 'validation.invalid' });
const discountCode = z.string().trim().max(64, 'validation.invalid').optional();

/** SPEC §3 Create payload, for a change (PUT /deployments/{id}, generate-review). */
export const orderChangeSchema = z.object({
  name: serverNameSchema.optional(),
  plan: id,
  paymentCycle: cycle,
  planConfig: planConfigSchema,
  paymentVendor: z.enum(PAYMENT_PROVIDERS, { error: 'validation.invalid' }).optional(),
  discountCode,
});
export type OrderChange = z.infer<typeof orderChangeSchema>;

/** SPEC §3 Create payload for a new server (POST /deployments, generate-preview). */
export const createDeploymentSchema = z.object({
  name: serverNameSchema,
  plan: id,
  paymentCycle: cycle,
  planConfig: planConfigSchema,
  /** free or the card payment provider; must agree with the price (checked on the server). */
  paymentVendor: z.enum(PAYMENT_PROVIDERS, { error: 'validation.invalid' }),
  discountCode,
  company: id,
  /** Optional on the wire so that its absence gets SPEC §8's own message. */
  project: z.string().trim().max(64, 'validation.invalid').optional(),
  provider: z.enum(PROVIDER_CODES, { error: 'validation.invalid' }),
});
export type CreateDeploymentBody = z.infer<typeof createDeploymentSchema>;

export const addProvisionSummaryQuerySchema = z.object({ addProvisionSummary: z.enum(['0', '1', 'true', 'false']).optional() });
export const deploymentParamsSchema = z.object({ id: z.string().max(64) });
export const companyParamsSchema = z.object({ company: z.string().max(64) });
/** generate-review: the change to an existing server (`_id`). */
export const reviewRequestSchema = orderChangeSchema.extend({ _id: id });
/** generate-preview: a new order; naming the company (signed in) adds its tax. */
export const previewRequestSchema = orderChangeSchema.extend({ company: id.optional() });
export const receiptParamsSchema = z.object({ id: z.string().max(64), txId: z.string().max(64) });

const cycleSchema = z.enum(BILLING_CYCLES);
const usd = z.literal('USD');
const money = z.string();
const moneyAmount = z.object({ amount: money, currency: usd });
const quoteLineSchema = z.object({ kind: z.string(), refId: z.string().nullable(), name: z.string(), amount: money });

/** The priced lines of an order and its totals per cycle, as stored on the subscription. */
export const subscriptionQuoteSchema = z.object({
  cycle: cycleSchema,
  currency: usd,
  lines: z.array(quoteLineSchema),
  monthly: money,
  subtotal: money,
  discount: money,
  tax: money,
  total: money,
  discountCode: z.string().nullable(),
});
export type SubscriptionQuote = z.infer<typeof subscriptionQuoteSchema>;

/** Handed to the checkout: Paddle's inline frame, or the local stand-in's card form. */
export const dataToVendorSchema = z.object({
  mode: z.enum(['paddle', 'stand-in']),
  /** Paddle transaction carrying the server-priced items (paddle mode), opened by paddle-js. */
  transactionId: z.string().nullable(),
  items: z.array(z.object({ name: z.string(), amount: money, quantity: z.literal(1) })),
  customer: z.object({ email: z.string() }),
  customData: z.object({ deploymentId: z.string(), subscriptionId: z.string(), companyId: z.string() }),
});
export type DataToVendor = z.infer<typeof dataToVendorSchema>;

/** SPEC §3 Payment params: what the checkout needs. */
export const provisionSummarySchema = z.object({
  items: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      meta: z.object({ basePrice: money.nullable(), size: z.number().nullable() }),
      pricing: z.object({ price: z.object({ amount: money }) }),
    }),
  ),
  total: moneyAmount,
  subtotal: money,
  tax: money,
  discount: money,
  cycle: cycleSchema,
  dataToVendor: dataToVendorSchema,
});
export type ProvisionSummary = z.infer<typeof provisionSummarySchema>;

export const subscriptionDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  vendor: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  cycle: cycleSchema,
  /** The next bill's gross (bill.gross): the stored net on the company's current tax basis. */
  recurring: moneyAmount,
  /** The next bill: net, tax and gross on the company's current billing country (the one tax rule). */
  bill: taxedAmountSchema,
  currentPeriod: z.object({ startsAt: z.string(), endsAt: z.string() }).nullable(),
  nextBilledAt: z.string().nullable(),
  scheduledChange: z.unknown(),
  pastDueSince: z.string().nullable(),
  /** PAST_DUE_GRACE_DAYS after pastDueSince: when the running-servers worker pauses the server. */
  pauseAfter: z.string().nullable(),
});
export type SubscriptionDto = z.infer<typeof subscriptionDtoSchema>;

/** Answer of POST /deployments and PUT /deployments/{id}. */
export const deploymentOrderAnswerSchema = z.object({
  _id: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  flags: z.object({ free: z.boolean() }),
  paymentRequired: z.boolean(),
  subscription: subscriptionDtoSchema,
  provisionSummary: provisionSummarySchema.optional(),
  /** PUT only: what the change cost now (prorated), null when nothing was charged. */
  charged: moneyAmount.nullable().optional(),
});
export type DeploymentOrderAnswer = z.infer<typeof deploymentOrderAnswerSchema>;

/** Answer of generate-preview (a new order). */
export const orderPreviewSchema = z.object({
  cycle: cycleSchema,
  items: z.array(quoteLineSchema),
  subtotal: money,
  discount: money,
  tax: money,
  total: moneyAmount,
  /** What the tax is: the ordering company's country and rate (no company: before tax). */
  taxBasis: taxBasisSchema,
  paymentRequired: z.boolean(),
});
export type OrderPreview = z.infer<typeof orderPreviewSchema>;

/** Answer of generate-review (a change to an existing server). */
export const orderReviewSchema = z.object({
  /** Every amount below is on this basis: the company's current billing country, from the next bill on. */
  taxBasis: taxBasisSchema,
  current: z.object({ cycle: cycleSchema, total: money, bill: taxedAmountSchema }),
  next: z.object({ cycle: cycleSchema, total: money, tax: money, bill: taxedAmountSchema, items: z.array(quoteLineSchema) }),
  /** Charged at once for the rest of the current period (prorated nets, then taxed); 0.00 when nothing is due. */
  amountDueNow: money,
  /** The tax within amountDueNow. */
  taxDueNow: money,
  dueNow: taxedAmountSchema,
  /** Unused value of the current period that is credited (gross), when the change costs less. */
  credit: money,
  remainingDays: z.number(),
  currency: usd,
  paymentRequired: z.boolean(),
});
export type OrderReview = z.infer<typeof orderReviewSchema>;

export const pastDueDeploymentSchema = z.object({ _id: z.string(), name: z.string(), pastDueSince: z.string(), pauseAfter: z.string() });
export type PastDueDeployment = z.infer<typeof pastDueDeploymentSchema>;

const configRef = z.string().trim().min(1).max(64);
/**
 * The pre-login wizard's finished configuration, kept with the new account at sign-up so that the
 * `continue` step can submit it on whichever device opens the verification link.
 */
export const pendingConfigurationSchema = z.object({
  name: z.string().trim().max(64),
  cycle: cycleSchema,
  order: z.object({
    planId: configRef,
    planCode: z.string().trim().max(100),
    providerId: configRef,
    planConfig: z.object({ region: configRef, size: configRef.nullable(), features: z.array(configRef).max(50), provider: z.string().trim().max(32) }),
    specialFeatures: z.object({ domain: configRef.nullable(), retention: configRef.nullable(), backup: configRef.nullable() }),
  }),
});
export type PendingConfiguration = z.infer<typeof pendingConfigurationSchema>;
/** GET /users/me/pending-order: the configuration kept at sign-up, or null. */
export const pendingConfigurationAnswerSchema = z.object({ configuration: pendingConfigurationSchema.nullable() });

/**
 * Sign-up with the pre-login wizard's order, kept with the new account (never with an address
 * already taken). Apart from signUpSchema so the front door's form checks don't load the orders.
 */
export const signUpWithOrderSchema = signUpSchema.extend({ pendingOrder: pendingConfigurationSchema.optional() });
export type SignUpWithOrderBody = z.infer<typeof signUpWithOrderSchema>;
