import { describe, expect, it } from 'vitest';
import { changeRefusals } from '../../src/domain/orders/changes';
import { defaultOrder, localQuote, orderFeatures, orderFromDeployment, orderOnPlan, shapeOf, type Order } from './options';
import { testOptions, testPlans } from './testCatalogue';

const options = testOptions();
const must = <T>(value: T | null | undefined): T => {
  if (value === null || value === undefined) throw new Error('missing');
  return value;
};
const [free, starter, basic] = testPlans as [(typeof testPlans)[0], (typeof testPlans)[0], (typeof testPlans)[0]];

describe('wizard order rules', () => {
  it('resets to the default paid plan, first region by order, its size, default domain, 6 months and daily backup (SPEC §4)', () => {
    expect(defaultOrder(options)).toEqual({
      planId: 'starter',
      planCode: 'v3.mau_1_000_gcp.base',
      providerId: 'prov',
      planConfig: { region: 'us', size: 's1000', features: [], provider: 'gcp' },
      specialFeatures: { domain: 'd1', retention: 'r6', backup: 'bd' },
    });
  });

  it('keeps what the new plan offers and falls back to the defaults for the rest', () => {
    const paid = { ...orderOnPlan(options, starter, null), planConfig: { region: 'eu', size: 's1000', features: ['funnels'], provider: 'gcp' } };
    const rich = { ...paid, specialFeatures: { domain: 'd2', retention: 'r12', backup: 'bh' } };
    expect(orderOnPlan(options, basic, rich).planConfig).toEqual({ region: 'eu', size: 's5000', features: ['funnels'], provider: 'gcp' });
    const onFree = orderOnPlan(options, free, rich);
    expect(onFree.planConfig).toMatchObject({ region: 'us', size: 's500', features: [] });
    expect(onFree.specialFeatures).toEqual({ domain: 'd1', retention: 'r6', backup: 'bd' });
  });

  it('prices with the shared engine, per period', () => {
    const order = { ...must(defaultOrder(options)), planConfig: { region: 'eu', size: 's1000', features: ['funnels'], provider: 'gcp' } };
    expect(localQuote(options, order, 'month')?.total).toBe(4900 + 1000 + 1900);
    expect(localQuote(options, order, 'year')?.total).toBeGreaterThan(must(localQuote(options, order, 'month')).total * 9);
    expect(localQuote(options, orderOnPlan(options, free, null), 'month')?.total).toBe(0);
  });

  it('sends every chosen option as planConfig.features and reads a stored order back', () => {
    const order = { ...must(defaultOrder(options)), planConfig: { region: 'us', size: 's1000', features: ['funnels', 'sso'], provider: 'gcp' } };
    const features = orderFeatures(order);
    expect(features).toEqual(['funnels', 'sso', 'd1', 'r6', 'bd']);
    expect(orderFromDeployment(options, order.planId, order.planCode, 'prov', { region: 'us', size: 's1000', features, provider: 'gcp' })).toEqual(order);
  });

  it('applies SPEC §4 refusals in the browser from the shared rule: lower tier, shorter retention, free region', () => {
    const current: Order = { ...orderOnPlan(options, basic, null), specialFeatures: { domain: 'd1', retention: 'r12', backup: 'bd' } };
    const lower = { ...orderOnPlan(options, starter, current) };
    const shape = (o: Order) => must(shapeOf(options, o, 'month'));
    expect(changeRefusals(shape(current), shape(lower)).plan).toEqual(['orders.tierDowngrade']);
    expect(changeRefusals(shape(current), shape({ ...current, specialFeatures: { ...current.specialFeatures, retention: 'r6' } }))['planConfig.features']).toEqual(['orders.retentionDowngrade']);
    const freeOrder = orderOnPlan(options, free, null);
    expect(changeRefusals(shape(freeOrder), shape({ ...freeOrder, planConfig: { ...freeOrder.planConfig, region: 'eu' } }))['planConfig.region']).toEqual(['orders.freeRegionLocked']);
    expect(changeRefusals(shape(current), must(shapeOf(options, current, 'year')))).toEqual({});
  });
});
