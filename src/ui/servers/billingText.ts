import { billingLine, subscriptionState, type BillingFacts, type BillingLine } from '../../domain/billing/rules';
import type { DeploymentView } from '../../domain/deployments/schemas';
import type { SubscriptionDto } from '../../domain/orders/schemas';
import { shortDate } from './status';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * A server's billing line in words (`billingLine.*`, i18n/billing.ts): every screen that shows one, customer
 * or admin, goes through here so they all say the same. `amount` is the recurring price, formatted.
 */
export function billingText(facts: BillingFacts, amount: string, t: T): string {
  return lineText(billingLine(facts), amount, t);
}

function lineText(line: BillingLine, amount: string, t: T): string {
  const date = 'date' in line ? shortDate.format(new Date(line.date)) : '';
  return t(`billingLine.${line.key}`, { date, amount });
}

/**
 * A subscription's status in words (`subscriptionState`): "Active", "Past due"... while it bills
 * on, the billing line ("Deleting on …; no further charge") once it stops; `none` without one.
 */
export function subscriptionText(facts: BillingFacts, t: T, none = ''): string {
  const state = subscriptionState(facts);
  if (state.kind === 'line') return lineText(state.line, '', t);
  return state.status ? t(`management.billing.status.${state.status}`) : none;
}

/** The facts of a server's view (customer or admin) the billing line is made of. */
export function deploymentBillingFacts(d: Pick<DeploymentView, 'status' | 'terminationScheduledAt' | 'flags'> & { billing: SubscriptionDto | null }): BillingFacts {
  return {
    free: d.flags.free,
    status: d.billing?.status ?? null,
    deleted: d.status === 'deleted',
    deletingOn: d.terminationScheduledAt,
    nextBilledAt: d.billing?.nextBilledAt ?? null,
    scheduledChange: d.billing?.scheduledChange ?? null,
  };
}
