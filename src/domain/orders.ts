import { z } from 'zod';
import { BILLING_CYCLES, LIMITS, PAYMENT_PROVIDERS, PROVIDER_CODES, type BillingCycle, type PaymentProvider } from './constants';
import { noHtml } from './validation';

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

export const planConfigSchema = z.object({
  region: id,
  size: id.optional(),
  /** Every chosen option's refId: features, and the domain, retention and backup choices. */
  features: z.array(id).max(100, 'validation.invalid').default([]),
  provider: z.enum(PROVIDER_CODES, { error: 'validation.invalid' }).optional(),
});
export type PlanConfig = z.infer<typeof planConfigSchema>;

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

/** The priced lines of an order and its totals per cycle, as stored on the subscription. */
export interface SubscriptionQuote {
  cycle: BillingCycle;
  currency: 'USD';
  lines: { kind: string; refId: string | null; name: string; amount: string }[];
  monthly: string;
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  discountCode: string | null;
}

/** SPEC §3 Payment params: what the checkout needs. */
export interface ProvisionSummary {
  items: { name: string; description: string; meta: { basePrice: string | null; size: number | null }; pricing: { price: { amount: string } } }[];
  total: { amount: string; currency: 'USD' };
  subtotal: string;
  tax: string;
  discount: string;
  cycle: BillingCycle;
  dataToVendor: DataToVendor;
}

/** Handed to the checkout: Paddle's inline frame, or the local stand-in's card form. */
export interface DataToVendor {
  mode: 'paddle' | 'stand-in';
  /** Paddle transaction carrying the server-priced items (paddle mode), opened by paddle-js. */
  transactionId: string | null;
  items: { name: string; amount: string; quantity: 1 }[];
  customer: { email: string };
  customData: { deploymentId: string; subscriptionId: string; companyId: string };
}

export interface SubscriptionDto {
  _id: string;
  deploymentId: string;
  vendor: PaymentProvider;
  status: SubscriptionStatus;
  cycle: BillingCycle;
  recurring: { amount: string; currency: 'USD' };
  currentPeriod: { startsAt: string; endsAt: string } | null;
  nextBilledAt: string | null;
  scheduledChange: unknown;
  pastDueSince: string | null;
  /** PAST_DUE_GRACE_DAYS after pastDueSince: when the running-servers worker pauses the server. */
  pauseAfter: string | null;
}

/** Answer of POST /deployments and PUT /deployments/{id}. */
export interface DeploymentOrderAnswer {
  _id: string;
  status: DeploymentStatus;
  flags: { free: boolean };
  paymentRequired: boolean;
  subscription: SubscriptionDto;
  provisionSummary?: ProvisionSummary;
  /** PUT only: what the change cost now (prorated), null when nothing was charged. */
  charged?: { amount: string; currency: 'USD' } | null;
}

/** Answer of generate-preview (a new order). */
export interface OrderPreview {
  cycle: BillingCycle;
  items: SubscriptionQuote['lines'];
  subtotal: string;
  discount: string;
  tax: string;
  total: { amount: string; currency: 'USD' };
  paymentRequired: boolean;
}

/** Answer of generate-review (a change to an existing server). */
export interface OrderReview {
  current: { cycle: BillingCycle; total: string };
  next: { cycle: BillingCycle; total: string; items: SubscriptionQuote['lines'] };
  /** Charged at once for the rest of the current period (prorated); 0.00 when nothing is due. */
  amountDueNow: string;
  /** Unused value of the current period that is credited, when the change costs less. */
  credit: string;
  remainingDays: number;
  currency: 'USD';
  paymentRequired: boolean;
}

export interface PastDueDeployment {
  _id: string;
  name: string;
  pastDueSince: string;
  pauseAfter: string;
}
