import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceOrder, toWire } from '../../src/domain/pricing';
import type { ConfigurablesDto, PlanDto } from '../../src/domain/plans/schemas';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let plans: PlanDto[];
let conf: ConfigurablesDto;

beforeAll(async () => {
  t = await createTestApp();
  plans = (await t.app.inject({ method: 'GET', url: '/api/v1/plans/public' })).json<{ payload: PlanDto[] }>().payload;
  conf = (await t.app.inject({ method: 'GET', url: '/api/v1/plans/configurables/public/gcp' })).json<{ payload: ConfigurablesDto }>().payload;
});
afterAll(() => t.close());

const planByCode = (code: string) => {
  const plan = plans.find((p) => p.code === code);
  if (!plan) throw new Error(`no plan ${code}`);
  return plan;
};
const featureByCode = (code: string) => {
  const feature = conf.features.find((f) => f.code === code);
  if (!feature) throw new Error(`no feature ${code}`);
  return feature._id;
};
const regionByCode = (code: string) => {
  const region = conf.regions.find((r) => r.code === code);
  if (!region) throw new Error(`no region ${code}`);
  return region._id;
};

function price(body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: body as Record<string, unknown> });
}

describe('GET /plans/configurables/public/{providerCode}', () => {
  it('lists the provider, its regions (US-central first), sizes and every feature type', () => {
    expect(conf.providers).toEqual([expect.objectContaining({ code: 'gcp' })]);
    expect(conf.regions[0]?.code).toBe('us-central1');
    expect(conf.sizes[0]?.size.value).toBe(500);
    expect(new Set(conf.features.map((f) => f.type))).toEqual(new Set(['domain', 'feature', 'capability', 'retention', 'backup']));
    expect(conf.features.map((f) => f.code)).toEqual(expect.arrayContaining(['feature.base', 'feature.directory-sync']));
  });

  it('answers 404 for an unknown provider', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/plans/configurables/public/aws' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'PROVIDER_NOT_FOUND', message: 'There is no provider aws.' });
  });
});

describe('GET /plans/configurables?providerCode= (signed in)', () => {
  it('answers 401 without a session, and the same catalogue with one', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/plans/configurables?providerCode=gcp' });
    expect(anonymous.statusCode).toBe(401);
    const { cookie } = await signUpVerified(t.app, 'wizard@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/plans/configurables?providerCode=gcp', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual(conf);
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/plans/configurables', headers: { cookie } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().payload.errors.providerCode).toEqual(['This field is required.']);
  });
});

describe('POST /deployments/pricing', () => {
  it('prices the default paid plan monthly and yearly with the breakdown', async () => {
    const plan = planByCode('v3.mau_1_000_gcp.base');
    const body = (cycle: string) => ({
      plan: plan._id,
      planConfig: { region: regionByCode('europe-west1'), features: [featureByCode('feature.funnels'), featureByCode('domain.custom'), featureByCode('retention.12m'), featureByCode('backup.daily')], provider: 'gcp' },
      payment: { term: { cycle } },
    });
    // 49 base + 10 region + 19 funnels + 10 custom domain + 20 retention + 0 backup = 108.
    const month = await price(body('month'));
    expect(month.statusCode).toBe(200);
    expect(month.json().payload).toMatchObject({ total: { amount: '108.00', currency: 'USD' }, subtotal: '108.00', tax: '0.00', discount: '0.00', credit: '0.00', balance: '108.00', cycle: 'month' });
    const year = await price(body('year'));
    // 12 × 108 × 0.84 = 1088.64
    expect(year.json().payload.total).toEqual({ amount: '1088.64', currency: 'USD' });
  });

  it('gives the same cents as the browser engine for random orders', async () => {
    const gcpPlans = plans.filter((p) => p.provider.code === 'gcp');
    const options = conf.features.map((f) => f._id);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...gcpPlans),
        fc.constantFrom(...conf.regions.map((r) => r._id)),
        fc.subarray(options, { maxLength: 6 }),
        fc.constantFrom('month' as const, 'year' as const),
        async (plan, region, chosen, cycle) => {
          const typeOf = (id: string) => conf.features.find((f) => f._id === id)?.type;
          // One option per single-choice type, as the calculator sends.
          const seen = new Set<string>();
          const features = chosen.filter((id) => {
            const type = typeOf(id) ?? '';
            if (!['domain', 'retention', 'backup'].includes(type)) return true;
            if (seen.has(type)) return false;
            seen.add(type);
            return true;
          });
          const pick = (type: string) => features.find((id) => typeOf(id) === type) ?? null;
          const local = priceOrder(plan, {
            region,
            features: features.filter((id) => !['domain', 'retention', 'backup'].includes(typeOf(id) ?? '')),
            domain: pick('domain'),
            retention: pick('retention'),
            backup: pick('backup'),
            cycle,
          });
          const res = await price({ plan: plan._id, planConfig: { region, features }, payment: { term: { cycle } } });
          if (local.ok) {
            expect(res.statusCode).toBe(200);
            expect(res.json().payload.total).toEqual(toWire(local.quote).total);
          } else {
            expect(res.statusCode).toBe(400);
            expect(res.json().code).toBe('VALIDATION_FAILED');
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers a repeated order with the same price until the catalogue changes, then with the new one', async () => {
    const plan = planByCode('v3.mau_1_000_gcp.base');
    const body = { plan: plan._id, planConfig: { region: regionByCode('us-central1'), features: [] as string[] }, payment: { term: { cycle: 'month' } } };
    const first = await price(body);
    expect(first.json().payload.total).toEqual({ amount: '49.00', currency: 'USD' });
    expect((await price(body)).json().payload).toEqual(first.json().payload);
    // Any catalogue write drops the kept answers, this one straight to the database included.
    await t.app.database.rows("update plans set base_price_cents = 5900 where code = 'v3.mau_1_000_gcp.base'");
    const changed = await price(body);
    await t.app.database.rows("update plans set base_price_cents = 4900 where code = 'v3.mau_1_000_gcp.base'");
    expect(changed.json().payload.total).toEqual({ amount: '59.00', currency: 'USD' });
    expect((await price(body)).json().payload.total).toEqual({ amount: '49.00', currency: 'USD' });
  });

  it('refuses a bad order again on every ask: refusals are not kept', async () => {
    const body = { plan: planByCode('v3.mau_500_gcp.base')._id, planConfig: { region: regionByCode('europe-west1'), features: [] as string[] }, payment: { term: { cycle: 'month' } } };
    for (let i = 0; i < 2; i += 1) expect((await price(body)).json().payload.errors['planConfig.region']).toEqual(['This region is not available for this plan.']);
  });

  describe('refusals: a clear 400 with field errors, and nothing changes', () => {
    const paid = () => planByCode('v3.mau_1_000_gcp.base');
    const free = () => planByCode('v3.mau_500_gcp.base');
    const base = () => ({ plan: paid()._id, planConfig: { region: regionByCode('us-central1'), features: [] as string[] }, payment: { term: { cycle: 'month' } } });

    const cases: [string, () => unknown, string, string][] = [
      ['an unknown plan', () => ({ ...base(), plan: '00000000-0000-4000-8000-000000000000' }), 'plan', 'This plan does not exist.'],
      ['a malformed plan id', () => ({ ...base(), plan: 'not-an-id' }), 'plan', 'This plan does not exist.'],
      ['an unknown region', () => ({ ...base(), planConfig: { region: '00000000-0000-4000-8000-000000000000', features: [] } }), 'planConfig.region', 'This region does not exist for the plan.'],
      ['a region not available for the plan', () => ({ ...base(), plan: free()._id, planConfig: { region: regionByCode('europe-west1'), features: [] } }), 'planConfig.region', 'This region is not available for this plan.'],
      ['a coming-soon region', () => ({ ...base(), planConfig: { region: regionByCode('southamerica-east1'), features: [] } }), 'planConfig.region', 'This region is not available for this plan.'],
      ['an unknown feature', () => ({ ...base(), planConfig: { region: regionByCode('us-central1'), features: ['00000000-0000-4000-8000-000000000000'] } }), 'planConfig.features', 'This feature does not exist for the plan.'],
      ['a feature not available for the plan', () => ({ ...base(), plan: free()._id, planConfig: { region: regionByCode('us-central1'), features: [featureByCode('feature.funnels')] } }), 'planConfig.features', 'This feature is not available for this plan.'],
      ['an unknown size', () => ({ ...base(), planConfig: { region: regionByCode('us-central1'), features: [], size: '00000000-0000-4000-8000-000000000000' } }), 'planConfig.size', 'This size does not exist for the provider.'],
      ['two retentions', () => ({ ...base(), planConfig: { region: regionByCode('us-central1'), features: [featureByCode('retention.6m'), featureByCode('retention.12m')] } }), 'planConfig.features', 'Choose one option of each kind: one domain, one retention and one backup.'],
      ['a missing cycle', () => ({ ...base(), payment: { term: {} } }), 'payment.term.cycle', 'This value is not valid.'],
      ['a missing region', () => ({ ...base(), planConfig: { features: [] } }), 'planConfig.region', 'This field is required.'],
      ['an unknown discount code', () => ({ ...base(), discountCode: 'NOPE' }), 'discountCode', 'This discount code does not exist.'],
    ];
    it.each(cases)('refuses %s', async (_name, body, field, message) => {
      const before = await tableCounts(t.app);
      const res = await price(body());
      expect(res.statusCode).toBe(400);
      const json = res.json();
      expect(json.code).toBe('VALIDATION_FAILED');
      expect(json.payload.errors[field]).toContain(message);
      expect(json.message).toContain(field);
      expect(await tableCounts(t.app)).toEqual(before);
    });

    it('refuses an inactive plan', async () => {
      // A write straight to the database drops the cached catalogue too (db/changes.ts).
      await t.app.database.rows("update plans set status = 'inactive' where code = 'v3.mau_5_000_gcp.base'");
      const res = await price({ ...base(), plan: planByCode('v3.mau_5_000_gcp.base')._id });
      await t.app.database.rows("update plans set status = 'active' where code = 'v3.mau_5_000_gcp.base'");
      expect(res.statusCode).toBe(400);
      expect(res.json().payload.errors.plan).toEqual(['This plan is no longer offered.']);
    });
  });

  describe('discount codes', () => {
    beforeAll(async () => {
      await t.app.database.rows(`insert into discount_codes (code, kind, value, expires_at, max_uses, uses) values
        ('WELCOME20', 'percent', 20, null, null, 0),
        ('BIG', 'fixed', 100000, null, null, 0),
        ('OLD', 'percent', 50, now() - interval '1 day', null, 0),
        ('GONE', 'percent', 50, null, 3, 3)`);
    });
    const order = (discountCode: string) => ({
      plan: planByCode('v3.mau_1_000_gcp.base')._id,
      planConfig: { region: regionByCode('us-central1'), features: [] },
      payment: { term: { cycle: 'month' } },
      discountCode,
    });

    it('applies a percent code, case-insensitively', async () => {
      const res = await price(order('welcome20'));
      expect(res.json().payload).toMatchObject({ subtotal: '49.00', discount: '9.80', total: { amount: '39.20' }, isDiscountApplied: true, discountCode: 'WELCOME20' });
    });

    it('never takes the total below zero', async () => {
      expect((await price(order('BIG'))).json().payload).toMatchObject({ discount: '49.00', total: { amount: '0.00' } });
    });

    it('refuses expired and used-up codes with their reason', async () => {
      expect((await price(order('OLD'))).json().payload.errors.discountCode).toEqual(['This discount code has expired.']);
      expect((await price(order('GONE'))).json().payload.errors.discountCode).toEqual(['This discount code has been used up.']);
    });
  });
});

describe('POST /deployments/pricing for a company: tax from its billing country', () => {
  it('adds the tax of the billing country, none where unknown, and refuses a company the user is not in', async () => {
    const { cookie } = await signUpVerified(t.app, 'billing@example.com');
    const outsider = (await signUpVerified(t.app, 'not-billing@example.com')).cookie;
    const company = (await t.app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Taxed GmbH' }, headers: { cookie } })).json().payload._id;
    const order = { plan: planByCode('v3.mau_1_000_gcp.base')._id, planConfig: { region: regionByCode('us-central1'), features: [] }, payment: { term: { cycle: 'month' } }, company };
    const priced = async (c: string) => (await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: order, headers: { cookie: c } })).json();
    const setCountry = (billingCountry: string) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/companies/${company}`, payload: { name: 'Taxed GmbH', billingCountry }, headers: { cookie } });

    // No billing country yet: before tax, like the public calculator.
    expect((await priced(cookie)).payload).toMatchObject({ subtotal: '49.00', tax: '0.00', total: { amount: '49.00' } });
    expect((await setCountry('de')).json().payload.billingCountry).toBe('DE');
    expect((await priced(cookie)).payload).toMatchObject({ subtotal: '49.00', tax: '9.31', total: { amount: '58.31' } });
    await setCountry('BR'); // not in the rate table
    expect((await priced(cookie)).payload).toMatchObject({ tax: '0.00', total: { amount: '49.00' } });

    const bad = await setCountry('XX');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().payload.errors.billingCountry).toEqual(['Choose a country from the list.']);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/companies/${company}`, headers: { cookie } })).json().payload.billingCountry).toBe('BR');

    expect((await priced(outsider)).code).toBe('NOT_A_MEMBER');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: order });
    expect(anonymous.statusCode).toBe(401);
  });
});
