import type { ConfigurablesDto, PlanDto } from '../../dataProvider/catalogue';
import { DEFAULTS, type BillingCycle } from '../../src/domain/constants';
import type { OrderShape } from '../../src/domain/orders/changes';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import { isOptionAvailable, priceOrder, type Quote } from '../../src/domain/pricing';
import { calculatorOptions, type CalculatorOptions } from '../pricing/calculator';

type Feature = ConfigurablesDto['features'][number];

/** Everything the wizard offers: the calculator's lists plus add-ons, backups and sizes. */
export interface WizardOptions extends CalculatorOptions {
  addOns: Feature[];
  backups: Feature[];
  sizes: ConfigurablesDto['sizes'];
  providers: ConfigurablesDto['providers'];
  /** Every feature of the catalogue by id, whatever its type (edit mode reads old orders). */
  byId: Map<string, Feature>;
}

const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;

export function wizardOptions(plans: PlanDto[], conf: ConfigurablesDto): WizardOptions {
  const ofType = (type: Feature['type']) => conf.features.filter((f) => f.type === type && f.isAvailable).sort(byOrder);
  return {
    ...calculatorOptions(plans, conf),
    addOns: ofType('capability'),
    backups: ofType('backup'),
    sizes: [...conf.sizes].sort(byOrder),
    providers: conf.providers,
    byId: new Map(conf.features.map((f) => [f._id, f])),
  };
}

/** What is being ordered, as the store keeps it (SPEC §3 Server creation state: subscription). */
export interface Order {
  planId: string;
  planCode: string;
  providerId: string;
  planConfig: { region: string; size: string | null; features: string[]; provider: string };
  specialFeatures: { domain: string | null; retention: string | null; backup: string | null };
}

const available = (plan: PlanDto, id: string | null | undefined, list: 'region' | 'feature' = 'feature') => Boolean(id && isOptionAvailable(plan, list, id));
const firstOf = (plan: PlanDto, items: { _id: string; code: string }[], preferred?: string, list: 'region' | 'feature' = 'feature') => {
  const ok = items.filter((i) => available(plan, i._id, list));
  return (ok.find((i) => i.code === preferred) ?? ok[0])?._id ?? null;
};

/** The size whose MAU matches the plan's tier, else the first size (SPEC §4 reset: the first size). */
function sizeFor(options: WizardOptions, plan: PlanDto): string | null {
  const mau = mauFromPlanCode(plan.code);
  return (options.sizes.find((s) => s.size.value === mau) ?? options.sizes[0])?._id ?? null;
}

/**
 * An order on `plan`, keeping what the previous order chose where the plan offers it; otherwise
 * SPEC §4's defaults: first available region by order, default domain, 6 months, daily backup.
 */
export function orderOnPlan(options: WizardOptions, plan: PlanDto, previous: Order | null): Order {
  const keep = (id: string | null | undefined, list: 'region' | 'feature' = 'feature') => (available(plan, id, list) ? (id as string) : null);
  return {
    planId: plan._id,
    planCode: plan.code,
    providerId: plan.provider._id,
    planConfig: {
      region: keep(previous?.planConfig.region, 'region') ?? firstOf(plan, options.regions, DEFAULTS.regionCode, 'region') ?? '',
      size: sizeFor(options, plan),
      features: (previous?.planConfig.features ?? []).filter((id) => available(plan, id)),
      provider: plan.provider.code,
    },
    specialFeatures: {
      domain: keep(previous?.specialFeatures.domain) ?? firstOf(plan, options.domains, DEFAULTS.domainCode),
      retention: keep(previous?.specialFeatures.retention) ?? firstOf(plan, options.retentions, DEFAULTS.retentionCode),
      backup: keep(previous?.specialFeatures.backup) ?? firstOf(plan, options.backups, DEFAULTS.backupCode),
    },
  };
}

/** SPEC §4 reset: the default paid plan with the default options. */
export function defaultOrder(options: WizardOptions): Order | null {
  const plan = options.plans.find((p) => p.code === DEFAULTS.paidPlanCode) ?? options.plans.find((p) => p.kind === 'paid') ?? options.plans[0];
  return plan ? orderOnPlan(options, plan, null) : null;
}

/** Every chosen option's refId, as the API's planConfig.features carries them. */
export const orderFeatures = (order: Order): string[] =>
  [...order.planConfig.features, order.specialFeatures.domain, order.specialFeatures.retention, order.specialFeatures.backup].filter((id): id is string => Boolean(id));

/** The price at once, from the shared engine the server prices with (before tax). */
export function localQuote(options: WizardOptions, order: Order | null, cycle: BillingCycle): Quote | null {
  const plan = order && options.plans.find((p) => p._id === order.planId);
  if (!order || !plan) return null;
  const result = priceOrder(plan, { region: order.planConfig.region, features: order.planConfig.features, ...order.specialFeatures, cycle });
  return result.ok ? result.quote : null;
}

/** An order as SPEC §4's change rules (src/domain/orders/changes) look at it. */
export function shapeOf(options: WizardOptions, order: Order, cycle: BillingCycle): OrderShape | null {
  const plan = options.plans.find((p) => p._id === order.planId);
  if (!plan) return null;
  const retention = order.specialFeatures.retention ? options.byId.get(order.specialFeatures.retention) : undefined;
  return { provider: plan.provider.code, tier: mauFromPlanCode(plan.code), free: plan.kind === 'free', region: order.planConfig.region, retentionOrder: retention?.order ?? null, cycle };
}

/** Reads a stored order (edit mode) back into the wizard's shape: specials by feature type. */
export function orderFromDeployment(options: WizardOptions, planId: string, planCode: string, providerId: string, config: { region: string; size?: string; features: string[]; provider?: string }): Order {
  const specials: Order['specialFeatures'] = { domain: null, retention: null, backup: null };
  const features: string[] = [];
  for (const id of config.features) {
    const type = options.byId.get(id)?.type;
    if (type === 'domain' || type === 'retention' || type === 'backup') specials[type] = id;
    else features.push(id);
  }
  return { planId, planCode, providerId, planConfig: { region: config.region, size: config.size ?? null, features, provider: config.provider ?? DEFAULTS.providerCode }, specialFeatures: specials };
}
