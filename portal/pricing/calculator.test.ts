import { describe, expect, it } from 'vitest';
import type { ConfigurablesDto, PlanDto } from '../../dataProvider/catalogue';
import { calculatorOptions, choosePlan, EMPTY_SELECTION, optionState, quoteOf, toggleFeature } from './calculator';

const price = (amount: string) => ({ month: { price: { amount, currency: 'USD' as const } } });
const feature = (id: string, code: string, type: ConfigurablesDto['features'][number]['type'], order: number, status: 'active' | 'inactive' = 'active') => ({
  _id: id, code, type, name: code, description: '', order, price: '0.00', status, isAvailable: status === 'active',
});
const conf: ConfigurablesDto = {
  providers: [{ _id: 'p', code: 'gcp', name: 'GCP' }],
  regions: [
    { _id: 'eu', code: 'europe-west1', name: 'Belgium', order: 2, price: '10.00', isAvailable: true },
    { _id: 'us', code: 'us-central1', name: 'Iowa', order: 1, price: '0.00', isAvailable: true },
  ],
  sizes: [],
  features: [
    feature('base', 'feature.base', 'feature', 0),
    feature('dsync', 'feature.directory-sync', 'feature', 9),
    feature('funnels', 'feature.funnels', 'feature', 1),
    feature('sso', 'capability.sso', 'capability', 1),
    feature('d1', 'domain.default', 'domain', 1),
    feature('d2', 'domain.custom', 'domain', 2),
    feature('r12', 'retention.12m', 'retention', 2),
    feature('r6', 'retention.6m', 'retention', 1),
    feature('bk', 'backup.daily', 'backup', 1),
  ],
};
const plan = (id: string, code: string, priority: number, base: string, euStatus: 'available' | 'not_available', status: PlanDto['status'] = 'active'): PlanDto => ({
  _id: id, name: id, code, status, priority, type: 'regular', kind: base === '0.00' ? 'free' : 'paid', provider: { _id: 'p', code: 'gcp' }, basePricing: price(base),
  regions: [
    { refId: 'us', status: 'available', pricing: price('0.00') },
    { refId: 'eu', status: euStatus, pricing: price('10.00') },
  ],
  features: ['funnels', 'd1', 'd2', 'r6', 'r12', 'bk'].map((refId) => ({ refId, status: 'available' as const, pricing: price(refId === 'funnels' ? '19.00' : refId === 'd2' ? '10.00' : refId === 'r12' ? '20.00' : '0.00') })),
});
const plans = [
  plan('pro', 'v3.mau_1_000_gcp.base', 2, '49.00', 'available'),
  plan('free', 'v3.mau_500_gcp.base', 1, '0.00', 'not_available'),
  plan('mock', 'v3.mau_1_000_mock-cloud.base', 0, '10.00', 'available'),
  plan('old', 'v3.mau_5_000_gcp.base', 3, '99.00', 'available', 'inactive'),
];
const options = calculatorOptions(plans, conf);

describe('pricing calculator rules', () => {
  it('lists only active gcp plans, by priority', () => {
    expect(options.plans.map((p) => p._id)).toEqual(['free', 'pro']);
  });

  it('lists features of type feature without the base and directory-sync codes; domains and retentions by order', () => {
    expect(options.features.map((f) => f._id)).toEqual(['funnels']);
    expect(options.domains.map((f) => f._id)).toEqual(['d1', 'd2']);
    expect(options.retentions.map((f) => f._id)).toEqual(['r6', 'r12']);
    expect(options.regions.map((r) => r._id)).toEqual(['us', 'eu']);
  });

  it('shows options as unpriced without a plan, and unavailable where the plan says so', () => {
    expect(optionState(undefined, 'region', 'eu')).toEqual({ kind: 'noPlan' });
    expect(optionState(plans[1], 'region', 'eu')).toEqual({ kind: 'unavailable' });
    expect(optionState(plans[0], 'region', 'eu')).toEqual({ kind: 'price', monthlyCents: 1000 });
    expect(optionState(plans[0], 'feature', 'sso')).toEqual({ kind: 'unavailable' });
  });

  it('resets region, features, domain and retention when a plan is chosen, keeping the cycle', () => {
    const pro = options.plans[1];
    if (!pro) throw new Error('fixture');
    let s = choosePlan(options, { ...EMPTY_SELECTION, cycle: 'year' }, pro);
    s = toggleFeature({ ...s, regionId: 'eu', domainId: 'd2', retentionId: 'r12' }, 'funnels');
    expect(quoteOf(options, { ...s, cycle: 'month' })?.total).toBe(4900 + 1000 + 1900 + 1000 + 2000);
    const again = choosePlan(options, s, pro);
    expect(again).toEqual({ planId: 'pro', regionId: 'us', featureIds: [], domainId: 'd1', retentionId: 'r6', cycle: 'year' });
  });

  it('toggles features on and off', () => {
    const on = toggleFeature(EMPTY_SELECTION, 'funnels');
    expect(on.featureIds).toEqual(['funnels']);
    expect(toggleFeature(on, 'funnels').featureIds).toEqual([]);
  });

  it('has no quote until a plan is chosen', () => {
    expect(quoteOf(options, EMPTY_SELECTION)).toBeNull();
  });
});
