import type { BillingCycle, ProviderCode } from '../../src/domain/constants';
import type { OrderChange, PlanConfig } from '../../src/domain/orders/schemas';
import { orderFeatures, type Order } from './options';
import type { WizardState } from './store';

/**
 * The one mapping of the wizard's order to what the API reads: the plan, the cycle and the plan's
 * configuration (region, size, every chosen option, provider). The price, the new server and a
 * change all send it.
 */
export function orderRequest(order: Order, cycle: BillingCycle): { plan: string; paymentCycle: BillingCycle; planConfig: PlanConfig & { provider: ProviderCode } } {
  const { region, size, provider } = order.planConfig;
  return { plan: order.planId, paymentCycle: cycle, planConfig: { region, ...(size ? { size } : {}), features: orderFeatures(order), provider: provider as ProviderCode } };
}

/** The wizard's whole order (its name, and free when its total is nothing), or null before a plan is chosen. */
export function wizardOrderRequest(state: WizardState): (Required<Pick<OrderChange, 'name' | 'paymentVendor'>> & ReturnType<typeof orderRequest>) | null {
  if (!state.subscription) return null;
  return { name: state.name.trim(), ...orderRequest(state.subscription, state.activePaymentPeriod), paymentVendor: state.pricing && Number(state.pricing.total) === 0 ? 'free' : 'paddle' };
}
