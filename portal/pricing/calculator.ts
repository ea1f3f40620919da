import { DEFAULTS, type BillingCycle } from '../../src/domain/constants';
import { parsePlanCode } from '../../src/domain/plans/planCode';
import { optionMonthlyCents, priceOrder, type OptionList, type Quote } from '../../src/domain/pricing';
import type { ConfigurablesDto, PlanDto } from '../../dataProvider/catalogue';

/** Codes the calculator never lists as features (SPEC §2). */
const EXCLUDED_FEATURE_CODES = new Set(['feature.base', 'feature.directory-sync']);

type Feature = ConfigurablesDto['features'][number];
type Region = ConfigurablesDto['regions'][number];

export interface CalculatorOptions {
  plans: PlanDto[];
  regions: Region[];
  features: Feature[];
  domains: Feature[];
  retentions: Feature[];
  /** The backup included with every server; not chosen here, but part of the order. */
  backup: Feature | undefined;
}

const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

/** What the calculator lists: active gcp plans by priority, and the options by type and order. */
export function calculatorOptions(plans: PlanDto[], conf: ConfigurablesDto): CalculatorOptions {
  const ofType = (type: Feature['type']) => conf.features.filter((f) => f.type === type && f.isAvailable).sort(byOrder);
  return {
    plans: plans.filter((p) => p.status === 'active' && parsePlanCode(p.code)?.provider === 'gcp').sort((a, b) => a.priority - b.priority),
    regions: conf.regions.filter((r) => r.isAvailable).sort(byOrder),
    features: ofType('feature').filter((f) => !EXCLUDED_FEATURE_CODES.has(f.code)),
    domains: ofType('domain'),
    retentions: ofType('retention'),
    backup: ofType('backup').find((f) => f.code === DEFAULTS.backupCode),
  };
}

export interface Selection {
  planId: string | null;
  regionId: string | null;
  featureIds: string[];
  domainId: string | null;
  retentionId: string | null;
  cycle: BillingCycle;
}

export const EMPTY_SELECTION: Selection = { planId: null, regionId: null, featureIds: [], domainId: null, retentionId: null, cycle: 'month' };

/** How an option shows for the chosen plan: its monthly price, unavailable, or no plan yet. */
export type OptionState = { kind: 'noPlan' } | { kind: 'unavailable' } | { kind: 'price'; monthlyCents: number };

export function optionState(plan: PlanDto | undefined, list: OptionList, refId: string): OptionState {
  if (!plan) return { kind: 'noPlan' };
  const option = (list === 'region' ? plan.regions : plan.features).find((o) => o.refId === refId);
  if (!option || option.status !== 'available') return { kind: 'unavailable' };
  return { kind: 'price', monthlyCents: optionMonthlyCents(plan, list, refId) ?? 0 };
}

const firstAvailable = (plan: PlanDto, list: OptionList, items: { _id: string; code: string }[], preferred?: string) => {
  const available = items.filter((i) => optionState(plan, list, i._id).kind === 'price');
  return (available.find((i) => i.code === preferred) ?? available[0])?._id ?? null;
};

/**
 * Choosing a plan resets region, features, domain and retention to that plan's defaults: the first
 * available region by order (US-central first), no features, the default domain and retention.
 */
export function choosePlan(options: CalculatorOptions, selection: Selection, plan: PlanDto): Selection {
  return {
    planId: plan._id,
    regionId: firstAvailable(plan, 'region', options.regions),
    featureIds: [],
    domainId: firstAvailable(plan, 'feature', options.domains, DEFAULTS.domainCode),
    retentionId: firstAvailable(plan, 'feature', options.retentions, DEFAULTS.retentionCode),
    cycle: selection.cycle,
  };
}

export function toggleFeature(selection: Selection, featureId: string): Selection {
  const has = selection.featureIds.includes(featureId);
  return { ...selection, featureIds: has ? selection.featureIds.filter((id) => id !== featureId) : [...selection.featureIds, featureId] };
}

/** The quote for the selection, with the same engine the server prices orders with. */
export function quoteOf(options: CalculatorOptions, selection: Selection): Quote | null {
  const plan = options.plans.find((p) => p._id === selection.planId);
  if (!plan || !selection.regionId) return null;
  const backup = options.backup && optionState(plan, 'feature', options.backup._id).kind === 'price' ? options.backup._id : null;
  const result = priceOrder(plan, {
    region: selection.regionId,
    features: selection.featureIds,
    domain: selection.domainId,
    retention: selection.retentionId,
    backup,
    cycle: selection.cycle,
  });
  return result.ok ? result.quote : null;
}
