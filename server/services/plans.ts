import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Availability, FeatureType, PlanKind, PlanType, Status } from '../../src/domain/constants';
import { centsToDecimal } from '../../src/domain/money';
import type { Db } from '../db/client';
import { companies, features, planFeatures, planGroupPlans, planRegions, plans, providers } from '../db/schema';

interface MonthlyPrice {
  month: { price: { amount: string; currency: 'USD' } };
}
export interface PlanOptionDto {
  refId: string;
  status: Availability;
  pricing: MonthlyPrice;
}
export interface PlanDto {
  _id: string;
  name: string;
  code: string;
  status: Status;
  priority: number;
  type: PlanType;
  kind: PlanKind;
  provider: { _id: string; code: string };
  basePricing: MonthlyPrice;
  regions: PlanOptionDto[];
  features: PlanOptionDto[];
}

const monthly = (cents: number): MonthlyPrice => ({ month: { price: { amount: centsToDecimal(cents), currency: 'USD' } } });

/**
 * The public catalogue (plans, configurables, feature types, and their serialised answers) is
 * read on every visit to pricing and the wizard but changes rarely, so it is kept in memory per
 * database. Catalogue writes (seeding, admin edits) call `invalidatePlanCache()`; the TTL bounds
 * how long another process's write can go unseen when several API processes share one PostgreSQL.
 */
const CACHE_TTL_MS = 30_000;
const catalogueCache = new WeakMap<Db, Map<string, { at: number; value: Promise<unknown> }>>();

export function invalidatePlanCache(db: Db): void {
  catalogueCache.delete(db);
}

/** `load()`'s result kept under `key` until the catalogue changes; a failed load is not kept. */
export function cachedCatalogue<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  let entries = catalogueCache.get(db);
  if (!entries) catalogueCache.set(db, (entries = new Map()));
  const hit = entries.get(key);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.value as Promise<T>;
  const value = load();
  const cache = entries;
  cache.set(key, { at: Date.now(), value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

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
