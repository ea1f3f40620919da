import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FeatureType } from '../../src/domain/constants';
import type { PlanDto } from '../../src/domain/plans/schemas';
import { centsToDecimal } from '../../src/domain/money';
import { cachedCatalogue } from '../db/catalogueCache';
import type { Db } from '../db/client';
import { companies, features, planFeatures, planGroupPlans, planRegions, plans, providers } from '../db/schema';

export { cachedCatalogue, invalidatePlanCache } from '../db/catalogueCache';

const monthly = (cents: number): PlanDto['basePricing'] => ({ month: { price: { amount: centsToDecimal(cents), currency: 'USD' } } });

/** Type of every feature by id (domain, feature, capability, retention, backup), cached like plans. */
export function featureTypes(db: Db): Promise<Map<string, FeatureType>> {
  return cachedCatalogue(db, 'featureTypes', () =>
    db
      .select({ id: features.id, type: features.type })
      .from(features)
      .then((rows) => new Map(rows.map((r) => [r.id, r.type]))),
  );
}

/** Active plans of every provider, by priority, each with its regions[] and features[]. */
export function listPublicPlans(db: Db): Promise<PlanDto[]> {
  return cachedCatalogue(db, 'publicPlans', () => loadPublicPlans(db));
}

async function loadPublicPlans(db: Db): Promise<PlanDto[]> {
  return loadPlans(db, eq(plans.status, 'active'));
}

/** The plans services are given (built once in `composeApp`): one by id, or the ones a company may order. */
export interface Plans {
  get(planId: string): Promise<PlanDto | null>;
  forCompany(companyId: string): Promise<PlanDto[]>;
}

export function createPlans({ db }: { db: Db }): Plans {
  return { get: (planId) => getPlan(db, planId), forCompany: (companyId) => listCompanyPlans(db, companyId) };
}

/** One plan by id, whatever its status; null when there is none (or the id is malformed). */
export async function getPlan(db: Db, planId: string): Promise<PlanDto | null> {
  if (!UUID.test(planId)) return null;
  const active = (await listPublicPlans(db)).find((p) => p._id === planId);
  if (active) return active;
  const [plan] = await loadPlans(db, eq(plans.id, planId));
  return plan ?? null;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadPlans(db: Db, where: SQL): Promise<PlanDto[]> {
  const rows = await db
    .select({ plan: plans, providerCode: providers.code })
    .from(plans)
    .innerJoin(providers, eq(providers.id, plans.providerId))
    .where(where)
    .orderBy(asc(plans.priority), asc(plans.code));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.plan.id);
  const [regionRows, featureRows] = await Promise.all([
    db.select().from(planRegions).where(inArray(planRegions.planId, ids)),
    db.select().from(planFeatures).where(inArray(planFeatures.planId, ids)),
  ]);
  return rows.map(({ plan, providerCode }) => ({
    _id: plan.id,
    name: plan.name,
    code: plan.code,
    status: plan.status,
    priority: plan.priority,
    type: plan.type,
    kind: plan.basePriceCents === 0 ? 'free' : 'paid',
    provider: { _id: plan.providerId, code: providerCode },
    basePricing: monthly(plan.basePriceCents),
    regions: regionRows
      .filter((r) => r.planId === plan.id)
      .map((r) => ({ refId: r.regionId, status: r.status, pricing: monthly(r.priceCents) })),
    features: featureRows
      .filter((f) => f.planId === plan.id)
      .map((f) => ({ refId: f.featureId, status: f.status, pricing: monthly(f.priceCents) })),
  }));
}

/** A company's plan list: its plan group's active plans, or the public list without a group. */
export async function listCompanyPlans(db: Db, companyId: string): Promise<PlanDto[]> {
  const [company] = await db.select({ planGroupId: companies.planGroupId }).from(companies).where(eq(companies.id, companyId));
  const all = await listPublicPlans(db);
  if (!company?.planGroupId) return all;
  const members = await db.select({ planId: planGroupPlans.planId }).from(planGroupPlans).where(eq(planGroupPlans.planGroupId, company.planGroupId));
  const ids = new Set(members.map((m) => m.planId));
  return all.filter((p) => ids.has(p._id));
}
