import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { STATUSES } from '../constants';
import type { Availability, Status } from '../constants';
import { mauFromPlanCode } from '../plans/planCode';
import { cycleCents, findOption, isOptionAvailable, optionMonthlyCents, priceCents, priceOrder, toWire } from './engine';
import { TAX_RATES } from './tax';
import type { DiscountInput, PlanOption, PricingOptions, PricingOrder, PricingPlan, Quote } from './types';

// ---- fixtures ------------------------------------------------------------------------------

const usd = (cents: number) => ({ month: { price: { amount: (cents / 100).toFixed(2), currency: 'USD' as const } } });
const option = (refId: string, cents: number, status: Availability = 'available'): PlanOption => ({ refId, status, pricing: usd(cents) });

/** Shaped like the API's PlanDto (extra fields included), modelled on the seeded Starter tier. */
const starterDto = {
  _id: 'plan-starter',
  name: 'Starter',
  code: 'v3.mau_1_000_gcp.base',
  status: 'active' as Status,
  priority: 2,
  type: 'regular',
  kind: 'paid',
  provider: { _id: 'gcp', code: 'gcp' },
  basePricing: usd(4900),
  regions: [option('us-central1', 0), option('europe-west1', 1000), option('southamerica-east1', 2500, 'coming_soon')],
  features: [
    option('feature.funnels', 1900),
    option('feature.ab-testing', 3900),
    option('feature.surveys', 1900, 'coming_soon'),
    option('feature.directory-sync', 4900, 'not_available'),
    option('domain.default', 0),
    option('domain.custom', 1000),
    option('retention.6m', 0),
    option('retention.12m', 2000),
    option('retention.24m', 4000, 'not_available'),
    option('backup.daily', 0),
    option('backup.hourly', 3000),
  ],
};
const starter: PricingPlan = starterDto;

const fullOrder: PricingOrder = {
  region: 'europe-west1',
  features: ['feature.funnels'],
  domain: 'domain.custom',
  retention: 'retention.12m',
  backup: 'backup.hourly',
};
const defaultOrder: PricingOrder = { region: 'us-central1', domain: 'domain.default', retention: 'retention.6m', backup: 'backup.daily' };
const now = new Date('2025-06-01T00:00:00Z');

function quoteOf(plan: PricingPlan, order: PricingOrder, options?: PricingOptions): Quote {
  const result = priceOrder(plan, order, options);
  if (!result.ok) throw new Error(`expected a quote, got ${JSON.stringify(result.errors)}`);
  return result.quote;
}
function errorsOf(plan: PricingPlan, order: PricingOrder): Record<string, string[]> {
  const result = priceOrder(plan, order);
  if (result.ok) throw new Error('expected a refusal');
  return result.errors;
}

// ---- examples ------------------------------------------------------------------------------

describe('priceOrder: monthly', () => {
  it('adds base, region, features, domain, retention and backup', () => {
    const quote = quoteOf(starter, fullOrder);
    expect(quote.monthly).toBe(4900 + 1000 + 1900 + 1000 + 2000 + 3000);
    expect(quote).toMatchObject({ cycle: 'month', currency: 'USD', mau: 1000, subtotal: 13_800, discount: 0, tax: 0, total: 13_800, credit: 0, balance: 13_800, discountResult: null, taxRate: 0 });
    expect(quote.lines).toEqual([
      { kind: 'base', refId: null, monthly: 4900, amount: 4900 },
      { kind: 'region', refId: 'europe-west1', monthly: 1000, amount: 1000 },
      { kind: 'feature', refId: 'feature.funnels', monthly: 1900, amount: 1900 },
      { kind: 'domain', refId: 'domain.custom', monthly: 1000, amount: 1000 },
      { kind: 'retention', refId: 'retention.12m', monthly: 2000, amount: 2000 },
      { kind: 'backup', refId: 'backup.hourly', monthly: 3000, amount: 3000 },
    ]);
  });

  it('prices the default configuration at the base price', () => {
    expect(quoteOf(starter, defaultOrder).total).toBe(4900);
    expect(quoteOf(starter, { region: 'us-central1' }).total).toBe(4900);
  });

  it('charges a feature once, even when listed twice or also chosen as domain', () => {
    const quote = quoteOf(starter, { region: 'us-central1', features: ['feature.funnels', 'feature.funnels', 'domain.custom'], domain: 'domain.custom' });
    expect(quote.subtotal).toBe(4900 + 1900 + 1000);
    expect(quote.lines.map((l) => l.kind)).toEqual(['base', 'region', 'feature', 'domain']);
  });

  it('reports a null tier for plan codes without one', () => {
    expect(quoteOf({ ...starter, code: 'v3.enterprise_gcp.base' }, defaultOrder).mau).toBeNull();
  });
});

describe('priceOrder: yearly', () => {
  it('is 12 months less 16%', () => {
    const quote = quoteOf(starter, { ...fullOrder, cycle: 'year' });
    expect(quote.cycle).toBe('year');
    expect(quote.monthly).toBe(13_800);
    expect(quote.subtotal).toBe(139_104); // 13 800 × 12 × 0.84
    expect(quote.lines.map((l) => l.amount)).toEqual([49_392, 10_080, 19_152, 10_080, 20_160, 30_240]);
  });

  it('rounds to the cent and keeps the lines adding up to the subtotal', () => {
    const plan: PricingPlan = { ...starter, basePricing: usd(1), regions: [option('r', 1)], features: [option('f', 1)] };
    const quote = quoteOf(plan, { region: 'r', features: ['f'], cycle: 'year' });
    expect(quote.subtotal).toBe(30); // 3 × 10.08 = 30.24
    expect(quote.lines.map((l) => l.amount)).toEqual([10, 10, 10]); // running totals 10, 20, 30
    expect(cycleCents(1, 'year')).toBe(10);
    expect(cycleCents(5, 'year')).toBe(50); // 50.4
    expect(cycleCents(25, 'year')).toBe(252); // 252.0
    expect(cycleCents(3, 'year')).toBe(30); // 30.24
    expect(cycleCents(4900, 'year')).toBe(49_392);
    expect(cycleCents(4900, 'month')).toBe(4900);
  });

  it('matches round(m × 12 × 84 / 100) for every small monthly amount', () => {
    // 12 × 84 = 1008, so a yearly price never lands on half a cent; integer maths just avoids float error.
    for (let m = 0; m < 20_000; m++) expect(cycleCents(m, 'year')).toBe(Math.round((m * 12 * 84) / 100));
  });
});

describe('priceOrder: discount, tax and credit', () => {
  const tenPercent: DiscountInput = { code: 'TEN', kind: 'percent', value: 10, uses: 0 };

  it('takes the discount off before tax, then credit off the taxed total', () => {
    const quote = quoteOf(starter, { region: 'us-central1', features: ['backup.hourly', 'domain.custom', 'feature.funnels', 'feature.ab-testing'] }, { discount: tenPercent, now, country: 'DE', credit: 500 });
    expect(quote.subtotal).toBe(4900 + 3000 + 1000 + 1900 + 3900); // 14 700
    expect(quote.discount).toBe(1470);
    expect(quote.discountResult).toEqual({ code: 'TEN', applied: true, amount: 1470, reason: null });
    expect(quote.taxRate).toBe(19);
    expect(quote.tax).toBe(2514); // 13 230 × 0.19 = 2 513.7
    expect(quote.total).toBe(14_700 - 1470 + 2514);
    expect(quote.credit).toBe(500);
    expect(quote.balance).toBe(quote.total - 500);
  });

  it('rounds tax half up', () => {
    const plan: PricingPlan = { ...starter, basePricing: usd(250) };
    expect(quoteOf(plan, { region: 'us-central1' }, { country: 'de' }).tax).toBe(48); // 47.5
    expect(quoteOf({ ...starter, basePricing: usd(2) }, { region: 'us-central1' }, { country: 'FI' }).tax).toBe(1); // 0.51
  });

  it('charges no tax in the US or an unknown country', () => {
    expect(quoteOf(starter, fullOrder, { country: 'US' }).tax).toBe(0);
    expect(quoteOf(starter, fullOrder, { country: 'XX' }).tax).toBe(0);
  });

  it('does not apply an expired or used-up discount, and says why', () => {
    const expired = quoteOf(starter, fullOrder, { discount: { ...tenPercent, expiresAt: '2025-05-31T00:00:00Z' }, now });
    expect(expired.discount).toBe(0);
    expect(expired.total).toBe(13_800);
    expect(expired.discountResult).toEqual({ code: 'TEN', applied: false, amount: 0, reason: 'pricing.discountExpired' });
    const exhausted = quoteOf(starter, fullOrder, { discount: { ...tenPercent, maxUses: 5, uses: 5 }, now });
    expect(exhausted.discount).toBe(0);
    expect(exhausted.discountResult?.reason).toBe('pricing.discountExhausted');
  });

  it('never takes the total below zero with a large fixed discount or credit', () => {
    const quote = quoteOf(starter, fullOrder, { discount: { code: 'BIG', kind: 'fixed', value: 1_000_000, uses: 0 }, now, country: 'GB', credit: 50 });
    expect(quote).toMatchObject({ subtotal: 13_800, discount: 13_800, tax: 0, total: 0, credit: 0, balance: 0 });
    const credited = quoteOf(starter, fullOrder, { credit: 1_000_000 });
    expect(credited).toMatchObject({ total: 13_800, credit: 13_800, balance: 0 });
  });

  it('refuses programming errors loudly', () => {
    expect(() => priceOrder(starter, fullOrder, { credit: -1 })).toThrow(RangeError);
    expect(() => priceOrder(starter, fullOrder, { credit: 1.5 })).toThrow(RangeError);
    expect(() => priceOrder(starter, fullOrder, { discount: tenPercent })).toThrow(TypeError);
    expect(() => priceOrder({ ...starter, basePricing: usd(-100) }, fullOrder)).toThrow(RangeError);
    expect(() => priceOrder({ ...starter, basePricing: { month: { price: { amount: 'free' } } } }, fullOrder)).toThrow(RangeError);
  });
});

describe('priceOrder: refusals', () => {
  it('refuses an inactive or passive plan', () => {
    expect(errorsOf({ ...starter, status: 'inactive' }, defaultOrder)).toEqual({ plan: ['pricing.planInactive'] });
    expect(errorsOf({ ...starter, status: 'passive' }, defaultOrder)).toEqual({ plan: ['pricing.planInactive'] });
  });

  it('refuses an unknown region, or one not available for the plan', () => {
    expect(errorsOf(starter, { ...defaultOrder, region: 'mars-north1' })).toEqual({ region: ['pricing.unknownRegion'] });
    expect(errorsOf(starter, { ...defaultOrder, region: '' })).toEqual({ region: ['pricing.unknownRegion'] });
    expect(errorsOf(starter, { ...defaultOrder, region: 'southamerica-east1' })).toEqual({ region: ['pricing.regionNotAvailable'] });
    // A feature refId is not a region.
    expect(errorsOf(starter, { ...defaultOrder, region: 'feature.funnels' })).toEqual({ region: ['pricing.unknownRegion'] });
  });

  it('refuses an unknown feature, or one coming soon or not available', () => {
    expect(errorsOf(starter, { ...defaultOrder, features: ['feature.teleport'] })).toEqual({ features: ['pricing.unknownFeature'] });
    expect(errorsOf(starter, { ...defaultOrder, features: ['feature.surveys'] })).toEqual({ features: ['pricing.featureNotAvailable'] });
    expect(errorsOf(starter, { ...defaultOrder, features: ['feature.directory-sync'] })).toEqual({ features: ['pricing.featureNotAvailable'] });
    expect(errorsOf(starter, { ...defaultOrder, features: ['us-central1'] })).toEqual({ features: ['pricing.unknownFeature'] });
  });

  it('refuses an unknown or unavailable domain, retention or backup under its own field', () => {
    expect(errorsOf(starter, { ...defaultOrder, domain: 'domain.vanity' })).toEqual({ domain: ['pricing.unknownFeature'] });
    expect(errorsOf(starter, { ...defaultOrder, retention: 'retention.24m' })).toEqual({ retention: ['pricing.featureNotAvailable'] });
    expect(errorsOf(starter, { ...defaultOrder, backup: 'backup.weekly' })).toEqual({ backup: ['pricing.unknownFeature'] });
  });

  it('reports every field at once, each message once', () => {
    expect(
      errorsOf({ ...starter, status: 'inactive' }, { region: 'nowhere', features: ['x', 'y', 'feature.surveys'], domain: 'domain.vanity', retention: 'retention.24m' }),
    ).toEqual({
      plan: ['pricing.planInactive'],
      region: ['pricing.unknownRegion'],
      features: ['pricing.unknownFeature', 'pricing.featureNotAvailable'],
      domain: ['pricing.unknownFeature'],
      retention: ['pricing.featureNotAvailable'],
    });
  });
});

describe('wire and calculator helpers', () => {
  it('writes the breakdown as decimal strings', () => {
    const quote = quoteOf(starter, fullOrder, { discount: { code: 'FIVE', kind: 'fixed', value: 505, uses: 0 }, now, country: 'NL', credit: 1000 });
    expect(toWire(quote)).toEqual({
      total: { amount: '160.87', currency: 'USD' }, // (13 800 − 505) × 1.21 = 16 086.95 → 16 087
      subtotal: '138.00',
      discount: '5.05',
      tax: '27.92',
      credit: '10.00',
      balance: '150.87',
    });
  });

  it('gives the monthly price and availability of one option', () => {
    expect(optionMonthlyCents(starter, 'region', 'europe-west1')).toBe(1000);
    expect(optionMonthlyCents(starter, 'feature', 'backup.hourly')).toBe(3000);
    expect(optionMonthlyCents(starter, 'feature', 'feature.surveys')).toBe(1900);
    expect(optionMonthlyCents(starter, 'region', 'feature.funnels')).toBeNull();
    expect(optionMonthlyCents(starter, 'feature', 'nope')).toBeNull();
    expect(isOptionAvailable(starter, 'region', 'us-central1')).toBe(true);
    expect(isOptionAvailable(starter, 'region', 'southamerica-east1')).toBe(false);
    expect(isOptionAvailable(starter, 'feature', 'nope')).toBe(false);
    expect(findOption(starter, 'feature', 'retention.24m')?.status).toBe('not_available');
    expect(priceCents(usd(12_345))).toBe(12_345);
  });
});

// ---- properties ----------------------------------------------------------------------------

const cents = fc.integer({ min: 0, max: 2_000_000 });
const availability = fc.constantFrom<Availability>('available', 'not_available', 'coming_soon');
const options = (prefix: string, status: fc.Arbitrary<Availability>, minLength = 0) =>
  fc.uniqueArray(
    fc.record({ refId: fc.nat(12).map((n) => `${prefix}${n}`), status, pricing: cents.map(usd) }),
    { selector: (o) => o.refId, minLength, maxLength: 10 },
  );

/** Active plans whose every option is available, so any order built from them is valid. */
const sellablePlan: fc.Arbitrary<PricingPlan> = fc.record({
  code: fc.constant('v3.mau_1_000_gcp.base'),
  status: fc.constant<Status>('active'),
  basePricing: cents.map(usd),
  regions: options('r', fc.constant('available'), 1),
  features: options('f', fc.constant('available')),
});

const pickOne = (ids: string[]) => (ids.length ? fc.option(fc.constantFrom(...ids), { nil: null }) : fc.constant(null));
const orderFor = (plan: PricingPlan): fc.Arbitrary<PricingOrder> => {
  const features = plan.features.map((f) => f.refId);
  return fc.record({
    region: fc.constantFrom(...plan.regions.map((r) => r.refId)),
    features: fc.subarray(features),
    domain: pickOne(features),
    retention: pickOne(features),
    backup: pickOne(features),
    cycle: fc.constantFrom('month' as const, 'year' as const),
  });
};
const planAndOrder = sellablePlan.chain((plan) => orderFor(plan).map((order) => ({ plan, order })));

const discountArb: fc.Arbitrary<DiscountInput | null> = fc.option(
  fc.oneof(
    fc.record({ code: fc.constant('P'), kind: fc.constant('percent' as const), value: fc.integer({ min: 0, max: 100 }), uses: fc.nat(3), maxUses: fc.option(fc.nat(3), { nil: undefined }) }),
    fc.record({ code: fc.constant('F'), kind: fc.constant('fixed' as const), value: fc.integer({ min: 0, max: 50_000_000 }), uses: fc.nat(3), maxUses: fc.option(fc.nat(3), { nil: undefined }) }),
  ),
  { nil: null },
);
const pricingOptions: fc.Arbitrary<PricingOptions> = fc.record({
  discount: discountArb,
  now: fc.constant(now),
  country: fc.option(fc.constantFrom(...Object.keys(TAX_RATES), 'ZZ', 'us'), { nil: null }),
  credit: fc.integer({ min: 0, max: 5_000_000 }),
});

describe('pricing properties', () => {
  it('is never negative, and the breakdown adds up', () => {
    fc.assert(
      fc.property(planAndOrder, pricingOptions, ({ plan, order }, opts) => {
        const q = quoteOf(plan, order, opts);
        for (const amount of [q.monthly, q.subtotal, q.discount, q.tax, q.total, q.credit, q.balance, ...q.lines.map((l) => l.amount)]) {
          expect(Number.isSafeInteger(amount)).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0);
        }
        expect(q.lines.reduce((sum, l) => sum + l.amount, 0)).toBe(q.subtotal);
        expect(q.lines.reduce((sum, l) => sum + l.monthly, 0)).toBe(q.monthly);
        expect(q.discount).toBeLessThanOrEqual(q.subtotal);
        expect(q.total).toBe(q.subtotal - q.discount + q.tax);
        expect(q.credit).toBeLessThanOrEqual(opts.credit ?? 0);
        expect(q.balance).toBe(q.total - q.credit);
        expect(toWire(q).total.amount).toMatch(/^\d+\.\d{2}$/);
      }),
    );
  });

  it('yearly equals round(12 × monthly × 0.84)', () => {
    fc.assert(
      fc.property(planAndOrder, ({ plan, order }) => {
        const month = quoteOf(plan, { ...order, cycle: 'month' });
        const year = quoteOf(plan, { ...order, cycle: 'year' });
        expect(year.monthly).toBe(month.subtotal);
        expect(year.subtotal).toBe(Math.round((month.subtotal * 12 * (100 - 16)) / 100));
      }),
    );
  });

  it('is monotone in tier: the same options on a plan with a higher base never cost less', () => {
    fc.assert(
      fc.property(planAndOrder, cents, pricingOptions, ({ plan, order }, extra, opts) => {
        const dearer: PricingPlan = { ...plan, basePricing: usd(priceCents(plan.basePricing) + extra) };
        const cheap = quoteOf(plan, order, opts);
        const dear = quoteOf(dearer, order, opts);
        expect(dear.subtotal).toBeGreaterThanOrEqual(cheap.subtotal);
        expect(dear.total).toBeGreaterThanOrEqual(cheap.total);
        expect(dear.balance).toBeGreaterThanOrEqual(cheap.balance);
      }),
    );
  });

  it('is monotone along a generated tier ladder, ordered by the MAU in the plan code', () => {
    const tierCode = (mau: number) => String(mau).replace(/\B(?=(\d{3})+(?!\d))/g, '_');
    const ladder = fc.record({
      maus: fc.uniqueArray(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 2, maxLength: 8 }),
      bases: fc.array(cents, { minLength: 8, maxLength: 8 }),
    });
    fc.assert(
      fc.property(planAndOrder, ladder, pricingOptions, ({ plan, order }, { maus, bases }, opts) => {
        // Base price grows with the tier; the options (and their prices) are shared.
        const sortedBases = [...bases].sort((a, b) => a - b);
        const tiers = [...maus].sort((a, b) => a - b).map((mau, i) => ({ ...plan, code: `v3.mau_${tierCode(mau)}_gcp.base`, basePricing: usd(sortedBases[i] ?? 0) }));
        // Scramble (by code string), then order by the MAU parsed from the code, as the calculator does.
        const byTier = [...tiers].sort((a, b) => a.code.localeCompare(b.code)).sort((a, b) => (mauFromPlanCode(a.code) ?? 0) - (mauFromPlanCode(b.code) ?? 0));
        const totals = byTier.map((p) => quoteOf(p, order, opts).total);
        for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeGreaterThanOrEqual(totals[i - 1] ?? 0);
        expect(byTier.map((p) => quoteOf(p, order).mau)).toEqual([...maus].sort((a, b) => a - b));
      }),
    );
  });

  it('never gets cheaper when an option is added', () => {
    const withExtra = planAndOrder.filter(({ plan }) => plan.features.length > 0).chain(({ plan, order }) =>
      fc.constantFrom(...plan.features.map((f) => f.refId)).map((extra) => ({ plan, order, extra })),
    );
    fc.assert(
      fc.property(withExtra, pricingOptions, ({ plan, order, extra }, opts) => {
        const before = quoteOf(plan, order, opts);
        const after = quoteOf(plan, { ...order, features: [...(order.features ?? []), extra] }, opts);
        expect(after.monthly).toBeGreaterThanOrEqual(before.monthly);
        expect(after.subtotal).toBeGreaterThanOrEqual(before.subtotal);
        expect(after.total).toBeGreaterThanOrEqual(before.total);
      }),
    );
  });

  it('a discount never takes the total below zero nor above the undiscounted total', () => {
    fc.assert(
      fc.property(planAndOrder, pricingOptions, ({ plan, order }, opts) => {
        const plain = quoteOf(plan, order, { ...opts, discount: null });
        const discounted = quoteOf(plan, order, opts);
        expect(discounted.total).toBeGreaterThanOrEqual(0);
        expect(discounted.total).toBeLessThanOrEqual(plain.total);
      }),
    );
  });

  it('accepts an order exactly when the plan is active and every option is listed and available', () => {
    const anyPlan: fc.Arbitrary<PricingPlan> = fc.record({
      code: fc.constant('v3.mau_500_gcp.base'),
      status: fc.constantFrom(...STATUSES),
      basePricing: cents.map(usd),
      regions: options('r', availability),
      features: options('f', availability),
    });
    const anyId = (prefix: string) => fc.nat(14).map((n) => `${prefix}${n}`); // some ids are not in the plan
    const anyOrder = fc.record({
      region: anyId('r'),
      features: fc.array(anyId('f'), { maxLength: 4 }),
      domain: fc.option(anyId('f'), { nil: null }),
      retention: fc.option(anyId('f'), { nil: null }),
      backup: fc.option(anyId('f'), { nil: null }),
    });
    fc.assert(
      fc.property(anyPlan, anyOrder, (plan, order) => {
        const sellable = (list: readonly PlanOption[], id: string) => list.some((o) => o.refId === id && o.status === 'available');
        const featureIds = [...order.features, order.domain, order.retention, order.backup].filter((id): id is string => id !== null);
        const expectOk = plan.status === 'active' && sellable(plan.regions, order.region) && featureIds.every((id) => sellable(plan.features, id));
        const result = priceOrder(plan, order);
        expect(result.ok).toBe(expectOk);
        if (!result.ok) {
          for (const [field, messages] of Object.entries(result.errors)) {
            expect(['plan', 'region', 'features', 'domain', 'retention', 'backup']).toContain(field);
            expect(messages.length).toBeGreaterThan(0);
            expect(new Set(messages).size).toBe(messages.length);
          }
        }
      }),
    );
  });

  it('is deterministic: the same inputs give the same cents', () => {
    fc.assert(
      fc.property(planAndOrder, pricingOptions, ({ plan, order }, opts) => {
        expect(priceOrder(structuredClone(plan), structuredClone(order), opts)).toEqual(priceOrder(plan, order, opts));
      }),
    );
  });
});
