import { and, eq, inArray } from 'drizzle-orm';
import type { AccessLevel } from '../../src/domain/companies/access';
import type { OrderShape } from '../../src/domain/orders/changes';
import type { DataToVendor, PlanConfig, ProvisionSummary, SubscriptionDto, SubscriptionQuote } from '../../src/domain/orders/schemas';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import { orderLineName } from '../../src/domain/orders/lineName';
import type { BillingCycle } from '../../src/domain/constants';
import type { Db } from '../db/client';
import { deployments, features, regions, sizes, subscriptions } from '../db/schema';
import { AppError } from '../errors';
import type { Members } from './companies';
import { UUID } from './plans';
import type { PlanDto } from '../../src/domain/plans/schemas';
import type { PricingAnswer } from '../../src/domain/pricing/schemas';
import { applyTax, netOf, type TaxBasis } from '../../src/domain/billing/tax';
import { taxedAmount } from '../../src/domain/billing/schemas';

/** An order's price, named for people: the lines carry the plan's, region's and options' names. */
export async function namedQuote(db: Db, plan: PlanDto, priced: PricingAnswer): Promise<SubscriptionQuote> {
  const ids = priced.lines.map((l) => l.refId).filter((id): id is string => id !== null);
  const [regionRows, featureRows] = ids.length
    ? await Promise.all([
        db.select({ id: regions.id, name: regions.name }).from(regions).where(inArray(regions.id, ids)),
        db.select({ id: features.id, name: features.name }).from(features).where(inArray(features.id, ids)),
      ])
    : [[], []];
  const names = new Map([...regionRows, ...featureRows].map((r) => [r.id, r.name]));
  return {
    cycle: priced.cycle,
    currency: 'USD',
    lines: priced.lines.map((l) => ({ kind: l.kind, refId: l.refId, name: l.refId ? orderLineName(l.kind, names.get(l.refId) ?? l.kind) : plan.name, amount: l.amount })),
    monthly: priced.monthly,
    subtotal: priced.subtotal,
    discount: priced.discount,
    tax: priced.tax,
    total: priced.total.amount,
    discountCode: priced.isDiscountApplied ? priced.discountCode : null,
  };
}

/** What SPEC §4's change rules look at, read from the catalogue. */
export async function orderShape(db: Db, plan: PlanDto, config: PlanConfig, cycle: BillingCycle): Promise<OrderShape> {
  const ids = [...new Set(config.features)];
  const retention = ids.length
    ? await db
        .select({ order: features.order })
        .from(features)
        .where(and(inArray(features.id, ids), eq(features.type, 'retention')))
    : [];
  return {
    provider: plan.provider.code,
    tier: mauFromPlanCode(plan.code),
    free: plan.kind === 'free',
    region: config.region,
    retentionOrder: retention.length ? Math.max(...retention.map((r) => r.order)) : null,
    cycle,
  };
}

/** The size a config names, for the summary (its MAU value), or null. */
export async function sizeValue(db: Db, config: PlanConfig): Promise<number | null> {
  if (!config.size || !/^[0-9a-f-]{36}$/i.test(config.size)) return null;
  const [row] = await db.select({ value: sizes.value }).from(sizes).where(eq(sizes.id, config.size));
  return row?.value ?? null;
}

/** SPEC §3 Payment params; meta.size is the chosen size's MAU, else the plan's tier. */
export function provisionSummary(quote: SubscriptionQuote, size: number | null, dataToVendor: DataToVendor): ProvisionSummary {
  return {
    items: quote.lines.map((l) => ({
      name: l.name,
      description: l.kind,
      meta: { basePrice: l.kind === 'base' ? l.amount : null, size: l.kind === 'base' ? size : null },
      pricing: { price: { amount: l.amount } },
    })),
    total: { amount: quote.total, currency: quote.currency },
    subtotal: quote.subtotal,
    tax: quote.tax,
    discount: quote.discount,
    cycle: quote.cycle,
    dataToVendor,
  };
}

const DAY_MS = 86_400_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

type SubscriptionRow = typeof subscriptions.$inferSelect;
/** What a bill's answer reads of the subscription (a server's view reads no more): its bill without the quote's lines (the widest column). */
export type SubscriptionViewRow = Pick<SubscriptionRow, 'id' | 'deploymentId' | 'vendor' | 'status' | 'cycle' | 'currentPeriodStart' | 'currentPeriodEnd' | 'nextBilledAt' | 'scheduledChange' | 'pastDueSince' | 'pendingChange'> & {
  quote: Pick<SubscriptionRow['quote'], 'total' | 'tax' | 'currency'>;
};

/** basis: the company's current tax basis, on which the stored net is billed from the next bill on. */
export function subscriptionDto(row: SubscriptionViewRow, graceDays: number, basis: TaxBasis): SubscriptionDto {
  const bill = taxedAmount(applyTax(netOf(row.quote), basis));
  return {
    _id: row.id,
    deploymentId: row.deploymentId,
    vendor: row.vendor,
    status: row.status,
    cycle: row.cycle,
    recurring: { amount: bill.gross, currency: row.quote.currency },
    bill,
    currentPeriod: row.currentPeriodStart && row.currentPeriodEnd ? { startsAt: row.currentPeriodStart.toISOString(), endsAt: row.currentPeriodEnd.toISOString() } : null,
    // Set to end (a deleted server's): no screen may promise another bill.
    nextBilledAt: row.scheduledChange?.action === 'cancel' || row.status === 'canceled' ? null : iso(row.nextBilledAt),
    scheduledChange: row.scheduledChange ?? null,
    pastDueSince: iso(row.pastDueSince),
    pauseAfter: row.status === 'past_due' && row.pastDueSince ? new Date(row.pastDueSince.getTime() + graceDays * DAY_MS).toISOString() : null,
  };
}

/**
 * A server and its subscription, for a member of its company (admin where asked): a stranger
 * gets 403 like on every company-scoped call, an unknown id 404.
 */
export async function loadOwnedDeployment(db: Db, members: Members, deploymentId: string, userId: string, role?: AccessLevel) {
  if (!UUID.test(deploymentId)) throw new AppError('DEPLOYMENT_NOT_FOUND');
  const [row] = await db
    .select({ deployment: deployments, subscription: subscriptions })
    .from(deployments)
    .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
    .where(eq(deployments.id, deploymentId));
  if (!row || row.deployment.status === 'deleted') throw new AppError('DEPLOYMENT_NOT_FOUND');
  await members.require(row.deployment.companyId, userId, role);
  return row;
}
