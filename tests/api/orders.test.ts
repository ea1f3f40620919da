import pg from 'pg';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeploymentSchema } from '../../src/domain/orders/schemas';
import { canonicalJson } from '../../server/services/idempotency';
import { addMember, BASIC, changeBody, companyOwner, count, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'owner@example.com');
});
afterAll(() => t.close());

const put = (cookie: string, id: string, body: unknown) => t.app.inject({ method: 'PUT', url: `/api/v1/deployments/${id}`, payload: body as Record<string, unknown>, headers: { cookie } });
const review = (cookie: string, body: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/deployments/generate-review', payload: body as Record<string, unknown>, headers: { cookie } });
const change = (overrides: Record<string, unknown> = {}) => changeBody(cat, owner, overrides);

/** Asserts a refused request: its status and code, and not one row changed anywhere. */
async function refused(send: () => Promise<{ statusCode: number; json: () => { code: string; payload: { errors?: Record<string, string[]> } } }>, status: number, code: string) {
  const before = await tableCounts(t.app);
  const res = await send();
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
  expect(await tableCounts(t.app)).toEqual(before);
  return res.json();
}

describe('POST /deployments', () => {
  it('orders a free server: active at once, no payment, settled for provisioning', async () => {
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE }));
    expect(res.statusCode).toBe(201);
    const body = res.json().payload;
    expect(body).toMatchObject({ status: 'initializing', flags: { free: true }, paymentRequired: false, subscription: { vendor: 'free', status: 'active', recurring: { amount: '0.00', currency: 'USD' } } });
    expect(body.provisionSummary.total).toEqual({ amount: '0.00', currency: 'USD' });
    const [row] = await t.app.database.rows<{ status: string; plan_code: string; created_by: string | null }>(`select status, plan_code, created_by from deployments where id = '${body._id}'`);
    expect(row).toMatchObject({ status: 'initializing', plan_code: FREE });
    expect(row?.created_by).toBeTruthy();
  });

  it('orders a paid server: pending payment, priced on the server, with what the checkout needs', async () => {
    const body = orderBody(cat, owner, { planConfig: { region: cat.region('europe-west1'), features: [cat.feature('feature.funnels'), cat.feature('retention.12m')] } });
    const res = await postOrder(t.app, owner.cookie, body);
    expect(res.statusCode).toBe(201);
    const answer = res.json().payload;
    const priced = (await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: { plan: body.plan, planConfig: body.planConfig, payment: { term: { cycle: 'month' } } } })).json().payload;
    expect(answer).toMatchObject({ status: 'provisioned', flags: { free: false }, paymentRequired: true, subscription: { vendor: 'paddle', status: 'pending', recurring: { amount: priced.total.amount } } });
    expect(priced.total.amount).toBe('98.00'); // 49 base + 10 region + 19 funnels + 20 retention
    const summary = answer.provisionSummary;
    expect(summary.total).toEqual({ amount: '98.00', currency: 'USD' });
    expect(summary.items[0]).toMatchObject({ name: 'Starter', description: 'base', meta: { basePrice: '49.00', size: 1000 }, pricing: { price: { amount: '49.00' } } });
    expect(summary.items.map((i: { name: string }) => i.name)).toEqual(['Starter', 'Region: Belgium, Europe', 'Funnels', 'Data retention: 12 months']);
    expect(summary.dataToVendor).toMatchObject({ mode: 'stand-in', transactionId: null, customer: { email: 'owner@example.com' }, customData: { deploymentId: answer._id, subscriptionId: answer.subscription._id, companyId: owner.companyId } });
  });

  it('answers without the summary unless asked', async () => {
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner), randomUUID(), '');
    expect(res.statusCode).toBe(201);
    expect(res.json().payload.provisionSummary).toBeUndefined();
  });
});

describe('POST /deployments idempotency', () => {
  it('replays the same key and body: one server, the same answer', async () => {
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Replayed' });
    const first = await postOrder(t.app, owner.cookie, body, key);
    const before = await tableCounts(t.app);
    const again = await postOrder(t.app, owner.cookie, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await count(t.app, `deployments where name = 'Replayed'`)).toBe(1);
  });

  it('refuses the same key with another body (422), a missing key (400) and a malformed key (400)', async () => {
    const key = randomUUID();
    await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'First body' }), key);
    await refused(() => postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Other body' }), key), 422, 'IDEMPOTENCY_KEY_REUSED');
    await refused(() => postOrder(t.app, owner.cookie, orderBody(cat, owner), null), 400, 'IDEMPOTENCY_KEY_INVALID');
    await refused(() => postOrder(t.app, owner.cookie, orderBody(cat, owner), 'has spaces in it'), 400, 'IDEMPOTENCY_KEY_INVALID');
  });

  it('answers 409 while the request holding the key is still working, and takes over the claim of one that died', async () => {
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'In flight' });
    const hash = createHash('sha256').update(canonicalJson({ body: createDeploymentSchema.parse(body), withSummary: true })).digest('hex');
    // A claim left by a request that was killed before its work committed: no lock holds it.
    await t.app.database.rows(`insert into idempotency_keys (user_id, key, request, request_hash) select id, '${key}', 'POST /deployments', '${hash}' from users where email = 'owner@example.com'`);
    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      // On PostgreSQL a second connection can play the request still at work: it holds the key's lock.
      const [{ id: userId } = { id: '' }] = await t.app.database.rows<{ id: string }>("select id from users where email = 'owner@example.com'");
      const working = new pg.Client({ connectionString: t.config.DATABASE_URL });
      await working.connect();
      try {
        await working.query('begin');
        await working.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${userId}:${key}`]);
        await refused(() => postOrder(t.app, owner.cookie, body, key), 409, 'IDEMPOTENCY_KEY_IN_FLIGHT');
      } finally {
        await working.query('rollback');
        await working.end();
      }
    }
    const retried = await postOrder(t.app, owner.cookie, body, key);
    expect(retried.statusCode).toBe(201);
    expect(await count(t.app, `deployments where name = 'In flight'`)).toBe(1);
    expect((await postOrder(t.app, owner.cookie, body, key)).json().payload._id).toBe(retried.json().payload._id);
  });

  it('makes one server of two simultaneous submits with one key', async () => {
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Double click' });
    const results = await Promise.all([postOrder(t.app, owner.cookie, body, key), postOrder(t.app, owner.cookie, body, key)]);
    expect(results.some((r) => r.statusCode === 201)).toBe(true);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    expect(await count(t.app, `deployments where name = 'Double click'`)).toBe(1);
  });
});

describe('POST /deployments refusals change nothing', () => {
  it('refuses an unknown plan, option or size, an unavailable region, a wrong vendor and a region on a free plan', async () => {
    const bad = (overrides: Record<string, unknown>) => () => postOrder(t.app, owner.cookie, orderBody(cat, owner, overrides));
    const region = (code: string) => ({ region: cat.region(code), features: [] });
    expect((await refused(bad({ plan: randomUUID() }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty('plan');
    expect((await refused(bad({ planConfig: { region: cat.region('us-central1'), features: [randomUUID()] } }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty(['planConfig.features']);
    expect((await refused(bad({ planConfig: { region: cat.region('us-central1'), size: randomUUID() } }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty(['planConfig.size']);
    expect((await refused(bad({ planConfig: region('southamerica-east1') }), 400, 'VALIDATION_FAILED')).payload.errors).toEqual({ 'planConfig.region': ['This region is not available for this plan.'] });
    expect((await refused(bad({ planCode: FREE, planConfig: region('europe-west1') }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty(['planConfig.region']);
    expect((await refused(bad({ paymentVendor: 'free' }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty('paymentVendor');
    expect((await refused(bad({ planCode: FREE, paymentVendor: 'paddle' }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty('paymentVendor');
    expect((await refused(bad({ provider: 'mock-cloud' }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty('provider');
    expect((await refused(bad({ name: '<b>x</b>' }), 400, 'VALIDATION_FAILED')).payload.errors).toHaveProperty('name');
  });

  it('asks for a project first, and refuses a project of another company', async () => {
    const res = await refused(() => postOrder(t.app, owner.cookie, orderBody(cat, owner, { project: undefined })), 400, 'PROJECT_REQUIRED');
    expect(res).toMatchObject({ message: 'You can not create a server before creating a project' });
    const other = await companyOwner(t.app, 'other-company@example.com');
    await refused(() => postOrder(t.app, owner.cookie, orderBody(cat, owner, { project: other.projectId })), 400, 'VALIDATION_FAILED');
  });

  it('answers 403 to a stranger and to a viewer of the company', async () => {
    const stranger = await companyOwner(t.app, 'stranger@example.com');
    await refused(() => postOrder(t.app, stranger.cookie, orderBody(cat, owner)), 403, 'NOT_A_MEMBER');
    const viewer = await addMember(t.app, owner.companyId, 'viewer@example.com', 'viewer');
    await refused(() => postOrder(t.app, viewer, orderBody(cat, owner)), 403, 'ROLE_REQUIRED');
    await refused(() => postOrder(t.app, '', orderBody(cat, owner)), 401, 'UNAUTHORIZED');
  });
});

describe('generate-preview', () => {
  it('prices a new order for a visitor, before tax', async () => {
    const body = orderBody(cat, owner, { paymentCycle: 'year', company: undefined });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/deployments/generate-preview', payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ cycle: 'year', total: { amount: '493.92', currency: 'USD' }, paymentRequired: true, tax: '0.00' });
  });
});

describe('edit mode: PUT /deployments/{id} and generate-review', () => {
  let paidId: string;
  let freeId: string;
  beforeAll(async () => {
    const paid = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Edited', planConfig: { region: cat.region('us-central1'), features: [cat.feature('retention.12m')] } }));
    paidId = paid.json().payload._id;
    expect((await pay(t.app, owner.cookie, paidId)).statusCode).toBe(200);
    freeId = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE }))).json().payload._id;
  });

  it('reviews an upgrade: the prorated amount now and the new recurring price', async () => {
    const res = await review(owner.cookie, { _id: paidId, ...change({ planCode: BASIC, planConfig: { region: cat.region('us-central1'), features: [cat.feature('retention.12m')] } }) });
    expect(res.statusCode).toBe(200);
    const r = res.json().payload;
    expect(r.current).toMatchObject({ cycle: 'month', total: '69.00' });
    expect(r.next).toMatchObject({ cycle: 'month', total: '119.00' });
    // Paid just now: nearly the whole period remains, so nearly the whole difference is due.
    expect(Number(r.amountDueNow)).toBeGreaterThan(49);
    expect(r.amountDueNow).toMatch(/^\d+\.\d{2}$/);
    expect(Number(r.amountDueNow)).toBeLessThanOrEqual(50);
    expect(r).toMatchObject({ credit: '0.00', paymentRequired: true, currency: 'USD' });
  });

  it('refuses a lower tier, less retention and a region change on a free plan, with field errors, changing nothing', async () => {
    const down = await refused(() => put(owner.cookie, paidId, change({ planCode: FREE, paymentVendor: 'free', planConfig: { region: cat.region('us-central1'), features: [cat.feature('retention.12m')] } })), 422, 'CHANGE_REFUSED');
    expect(down.payload.errors).toHaveProperty('plan', ['A server cannot move to a lower tier.']);
    const retention = await refused(() => put(owner.cookie, paidId, change({ planConfig: { region: cat.region('us-central1'), features: [cat.feature('retention.6m')] } })), 422, 'CHANGE_REFUSED');
    expect(retention.payload.errors).toEqual({ 'planConfig.features': ['Data retention cannot be downgraded.'] });
    await refused(() => review(owner.cookie, { _id: paidId, ...change({ planConfig: { region: cat.region('us-central1'), features: [] } }) }), 422, 'CHANGE_REFUSED');
    const region = await refused(() => put(owner.cookie, freeId, change({ planCode: FREE, planConfig: { region: cat.region('us-east1'), features: [cat.feature('retention.6m')] } })), 422, 'CHANGE_REFUSED');
    expect(region.payload.errors).toEqual({ 'planConfig.region': ['A free server cannot change region.'] });
  });

  it('answers 403 to a viewer and a stranger, and 404 to an unknown server', async () => {
    const viewer = await addMember(t.app, owner.companyId, 'viewer2@example.com', 'viewer');
    await refused(() => put(viewer, paidId, change({ planCode: BASIC })), 403, 'ROLE_REQUIRED');
    const stranger = await companyOwner(t.app, 'stranger2@example.com');
    await refused(() => put(stranger.cookie, paidId, change({ planCode: BASIC })), 403, 'NOT_A_MEMBER');
    await refused(() => review(stranger.cookie, { _id: paidId, ...change({ planCode: BASIC }) }), 403, 'NOT_A_MEMBER');
    await refused(() => put(owner.cookie, randomUUID(), change({ planCode: BASIC })), 404, 'DEPLOYMENT_NOT_FOUND');
  });

  it('upgrades the tier and switches to yearly: the subscription changes and the prorated charge is recorded', async () => {
    const before = await count(t.app, `transactions where deployment_id = '${paidId}'`);
    const upgrade = change({ planCode: BASIC, paymentCycle: 'year', planConfig: { region: cat.region('europe-west1'), features: [cat.feature('retention.24m')] } });
    const quoted = (await review(owner.cookie, { _id: paidId, ...upgrade })).json().payload;
    const res = await put(owner.cookie, paidId, upgrade);
    expect(res.statusCode).toBe(200);
    const body = res.json().payload;
    expect(body).toMatchObject({ _id: paidId, paymentRequired: false, subscription: { status: 'active', cycle: 'year' } });
    expect(body.charged.amount).toMatch(/^\d+\.\d{2}$/);
    const [row] = await t.app.database.rows<{ plan_code: string; payment_cycle: string }>(`select plan_code, payment_cycle from deployments where id = '${paidId}'`);
    expect(row).toEqual({ plan_code: BASIC, payment_cycle: 'year' });
    expect(await count(t.app, `transactions where deployment_id = '${paidId}'`)).toBe((before ?? 0) + 1);
    const [tx] = await t.app.database.rows<{ total: string; origin: string }>(`select total::text, origin from transactions where deployment_id = '${paidId}' order by billed_at desc limit 1`);
    expect(tx).toEqual({ total: body.charged.amount, origin: 'subscription_update' });
    // One amount everywhere: what the review quoted is what was charged and what the invoice says.
    expect(body.charged.amount).toBe(quoted.amountDueNow);
    const [invoice] = await t.app.database.rows<{ subtotal: string; tax: string; total: string }>(`select subtotal::text, tax::text, total::text from transactions where deployment_id = '${paidId}' order by billed_at desc limit 1`);
    expect(invoice?.total).toBe(quoted.amountDueNow);
    expect(Number(invoice?.subtotal) * 100 + Number(invoice?.tax) * 100).toBeCloseTo(Number(quoted.amountDueNow) * 100, 6);
  });

  it('upgrades a free server to a paid plan: it then waits for a checkout, still on its free plan', async () => {
    const res = await put(owner.cookie, freeId, { ...change({ planCode: STARTER }), name: 'Now paid' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ paymentRequired: true, flags: { free: true }, subscription: { vendor: 'paddle', status: 'pending' } });
    const [row] = await t.app.database.rows<{ plan_code: string; name: string }>(`select plan_code, name from deployments where id = '${freeId}'`);
    expect(row).toEqual({ plan_code: FREE, name: 'Now paid' });
  });
});
