import type { BillingCycle } from '../constants';
import { billableDays, scaleHalfUp } from '../billing/rules';
import type { FieldErrors } from '../errors';

/**
 * SPEC §4's rules for changing a server (edit mode), in one place for the wizard and the server:
 * a free plan cannot change region, retention cannot be downgraded, a server cannot move to a
 * lower tier; switching monthly ↔ yearly is always allowed. Pure.
 */

/** What the rules look at in an order: the wizard and the server both build it from the catalogue. */
export interface OrderShape {
  provider: string;
  /** MAU tier from the plan code; null when the code has none (then the tier cannot be compared). */
  tier: number | null;
  free: boolean;
  region: string;
  /** The chosen retention's order in the catalogue (6 months = 1 ...); null when none is chosen. */
  retentionOrder: number | null;
  cycle: BillingCycle;
}

export type ChangeRefusal = 'orders.providerChange' | 'orders.freeRegionLocked' | 'orders.retentionDowngrade' | 'orders.tierDowngrade';

/** Field errors (i18n keys) for a change from `current` to `next`; empty when it is allowed. */
export function changeRefusals(current: OrderShape, next: OrderShape): FieldErrors {
  const errors: FieldErrors = {};
  const refuse = (field: string, key: ChangeRefusal) => (errors[field] ??= []).push(key);
  if (next.provider !== current.provider) refuse('planConfig.provider', 'orders.providerChange');
  // A free server stays where it was created; upgrading to a paid plan frees the region.
  if (current.free && next.free && next.region !== current.region) refuse('planConfig.region', 'orders.freeRegionLocked');
  if ((next.retentionOrder ?? 0) < (current.retentionOrder ?? 0)) refuse('planConfig.features', 'orders.retentionDowngrade');
  if (current.tier !== null && (next.tier === null || next.tier < current.tier)) refuse('plan', 'orders.tierDowngrade');
  return errors;
}

export const isChangeAllowed = (current: OrderShape, next: OrderShape) => Object.keys(changeRefusals(current, next)).length === 0;

export interface Proration {
  /** Cents charged now. */
  dueNow: number;
  /** Cents of unused value credited when the change costs less than what is left. */
  credit: number;
  remainingDays: number;
}

/**
 * Paddle's prorated_immediately, in cents: the unused part of the current period is credited and
 * the new price is charged for the same remaining part; a new billing cycle starts a new period,
 * so the whole new price is charged at once, less the credit. Parts are whole days
 * (`billableDays`): the quote and the charge agree all day.
 */
export function prorate(input: { currentTotal: number; nextTotal: number; cycleChanges: boolean; periodStart: Date; periodEnd: Date; now: Date }): Proration {
  const { period, remaining } = billableDays(input.periodStart, input.periodEnd, input.now);
  const unused = scaleHalfUp(input.currentTotal, remaining, period);
  const charge = input.cycleChanges ? input.nextTotal : scaleHalfUp(input.nextTotal, remaining, period);
  const net = charge - unused;
  return { dueNow: Math.max(net, 0), credit: Math.max(-net, 0), remainingDays: remaining };
}

/** The end of a billing period that starts at `start`: one calendar month or year later (UTC). */
export function periodEnd(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start.getTime());
  if (cycle === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else {
    const day = end.getUTCDate();
    end.setUTCDate(1);
    end.setUTCMonth(end.getUTCMonth() + 1);
    // 31 January + 1 month is the last day of February, not 3 March.
    const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
    end.setUTCDate(Math.min(day, last));
  }
  return end;
}
