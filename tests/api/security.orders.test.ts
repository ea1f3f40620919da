import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_REPLAYED_HEADER } from '../../src/domain/idempotency';
import { signUpVerified } from '../support/accounts';
import { GOOD_PASSWORD } from '../support/auth';
import { addMember, BASIC, changeBody, companyOwner, count, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { paddlePaysOrder, paddleSettings, startFakePaddle, type FakePaddleAnswer, type PaddleCall } from '../support/paddle';
import { api } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Ordering talks to Paddle with no database transaction open: on the embedded database (one
 * connection) a slow Paddle must not hold up anyone else. The order and its Paddle transaction
 * are made in separate steps, and a retry with the order's Idempotency-Key resumes whichever step
 * is missing, making nothing twice. Orders are limited per user.
 */

const DELAY_MS = 3_000;
const ORDERS_PER_HOUR = 4;

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let cat: Catalogue;
/** How the fake answers the next calls of each kind (unset: at once). */
const slow: { creates?: FakePaddleAnswer; patches?: FakePaddleAnswer } = {};

beforeAll(async () => {
  const answer = (call: PaddleCall) => (call.method === 'POST' && call.url === '/transactions' ? slow.creates : call.method === 'PATCH' ? slow.patches : undefined);
  fake = await startFakePaddle({ answer });
  t = await createTestApp({ ...paddleSettings(fake.url), AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', ORDERS_PER_USER_PER_HOUR: String(ORDERS_PER_HOUR) });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
  fake.close();
});

const creates = () => fake.calls.filter((c) => c.method === 'POST' && c.url === '/transactions');
const health = () => t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });

async function timed(send: () => Promise<{ statusCode: number }>) {
  const start = performance.now();
  const res = await send();
  return { status: res.statusCode, ms: performance.now() - start };
}

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/**
 * Runs `operation`, which calls Paddle slowly, and while Paddle holds its answer measures the
 * readiness check and an unrelated user's sign-in against the same requests made just before.
 */
async function othersWhileWaiting<R extends { statusCode: number; body: string }>(operation: () => Promise<R>, paddleCalls: () => number, bystander: string): Promise<R> {
  const signIn = () => t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: bystander, password: GOOD_PASSWORD } });
  const plain = { health: await timed(health), signIn: await timed(signIn) };
  const before = paddleCalls();
  let answered = false;
  const pending = operation().then((res) => ((answered = true), res));
  await until(() => paddleCalls() > before, 'the call to Paddle');
  const waiting = { health: await timed(health), signIn: await timed(signIn) };
  // Measured while Paddle still held its answer.
  expect(answered).toBe(false);
  const res = await pending;
  expect(res.statusCode, res.body).toBeLessThan(300);
  expect([plain.health.status, plain.signIn.status, waiting.health.status, waiting.signIn.status]).toEqual([200, 200, 200, 200]);
  // Without a transaction held across the call, each waits for none of Paddle's delay (a held
  // one made them wait for nearly all of it); the slack covers a busy machine.
  const figures = JSON.stringify({ plain, waiting });
  expect(waiting.health.ms - plain.health.ms, figures).toBeLessThan(DELAY_MS / 3);
  expect(waiting.signIn.ms - plain.signIn.ms, figures).toBeLessThan(DELAY_MS / 3);
  return res;
}

describe('a slow Paddle holds up nobody else', () => {
  let bystander = '';
  beforeAll(async () => {
    bystander = 'bystander@example.com';
    await signUpVerified(t.app, bystander);
  });

  it('an order waiting for its Paddle transaction leaves health and an unrelated sign-in fast', async () => {
    const owner = await companyOwner(t.app, 'slow-order@example.com');
    slow.creates = { delayMs: DELAY_MS };
    try {
      const res = await othersWhileWaiting(() => postOrder(t.app, owner.cookie, orderBody(cat, owner)), () => creates().length, bystander);
      expect(res.statusCode).toBe(201);
      expect(res.json().payload.provisionSummary.dataToVendor.transactionId).toMatch(/^txn_fake_\d+$/);
    } finally {
      delete slow.creates;
    }
  });

  it('a change of an unpaid order waiting for its new Paddle transaction does too, and stores it', async () => {
    const owner = await companyOwner(t.app, 'slow-change@example.com');
    const order = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload;
    const first = order.provisionSummary.dataToVendor.transactionId as string;
    slow.creates = { delayMs: DELAY_MS };
    try {
      const res = await othersWhileWaiting(() => api(t.app, owner.cookie, 'PUT', `/deployments/${order._id}?addProvisionSummary=1`, changeBody(cat, owner, { planCode: BASIC })), () => creates().length, bystander);
      const next = res.json().payload.provisionSummary.dataToVendor.transactionId as string;
      expect(next).toMatch(/^txn_fake_\d+$/);
      expect(next).not.toBe(first);
      const [sub] = await t.app.database.rows<{ checkout: string }>(`select checkout_transaction_id as checkout from subscriptions where deployment_id = '${order._id}'`);
      expect(sub?.checkout).toBe(next);
    } finally {
      delete slow.creates;
    }
  });

  it('a change of a paid subscription waiting for Paddle to update it does too', async () => {
    const owner = await companyOwner(t.app, 'slow-upgrade@example.com');
    const order = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload;
    const subscription = { id: 'sub_slow_upgrade', status: 'active', customer_id: 'ctm_slow', current_billing_period: { starts_at: new Date(Date.now() - 86_400_000).toISOString(), ends_at: new Date(Date.now() + 29 * 86_400_000).toISOString() } };
    for (const r of await paddlePaysOrder(t.app, order, subscription)) expect(r.json().payload.outcome).toBe('applied');
    const patches = () => fake.calls.filter((c) => c.method === 'PATCH' && c.url === '/subscriptions/sub_slow_upgrade').length;
    slow.patches = { delayMs: DELAY_MS };
    try {
      await othersWhileWaiting(() => api(t.app, owner.cookie, 'PUT', `/deployments/${order._id}`, changeBody(cat, owner, { planCode: BASIC })), patches, bystander);
    } finally {
      delete slow.patches;
    }
    const [dep] = await t.app.database.rows<{ plan_code: string }>(`select plan_code from deployments where id = '${order._id}'`);
    expect(dep?.plan_code).toBe(BASIC);
  });
});

describe('POST /deployments is limited per user', () => {
  it(`takes ${ORDERS_PER_HOUR} orders an hour from one user; past that 429, with nothing made here or at Paddle`, async () => {
    const owner = await companyOwner(t.app, 'many-orders@example.com');
    const keys = Array.from({ length: ORDERS_PER_HOUR }, () => randomUUID());
    for (const [i, key] of keys.entries()) expect((await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: `Order ${i}` }), key)).statusCode).toBe(201);

    const counts = await tableCounts(t.app);
    const calls = fake.calls.length;
    const refused = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'One too many' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many requests') });
    expect(await tableCounts(t.app)).toEqual(counts);
    expect(fake.calls.length).toBe(calls);
    expect(await count(t.app, `deployments where name = 'One too many'`)).toBe(0);

    // A retry of an order already made is not a new one: it still gets its answer.
    const replay = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Order 0' }), keys[0]);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBe('true');
    // The limit is the user's: another admin of the same company still orders.
    const colleague = await addMember(t.app, owner.companyId, 'colleague@example.com', 'admin');
    expect((await postOrder(t.app, colleague, orderBody(cat, owner, { name: 'Colleague order' }))).statusCode).toBe(201);
    expect(await tableCounts(t.app)).not.toEqual(counts);
  });
});

describe('an order and its Paddle transaction, made in two steps, stay one of each', () => {
  const rowsOf = async (deploymentId: string) => ({
    deployments: await count(t.app, `deployments where id = '${deploymentId}'`),
    subscriptions: await count(t.app, `subscriptions where deployment_id = '${deploymentId}'`),
    checkout: (await t.app.database.rows<{ id: string | null }>(`select checkout_transaction_id as id from subscriptions where deployment_id = '${deploymentId}'`))[0]?.id,
  });

  it('a retry with the same key answers the same order and the same Paddle transaction, made once', async () => {
    const owner = await companyOwner(t.app, 'retry@example.com');
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Retried' });
    const before = creates().length;
    const first = await postOrder(t.app, owner.cookie, body, key);
    const retry = await postOrder(t.app, owner.cookie, body, key);
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBe('true');
    expect(retry.json().payload._id).toBe(first.json().payload._id);
    const transactionId = first.json().payload.provisionSummary.dataToVendor.transactionId as string;
    expect(transactionId).toMatch(/^txn_fake_\d+$/);
    expect(retry.json().payload.provisionSummary.dataToVendor.transactionId).toBe(transactionId);
    expect(creates().length - before).toBe(1);
    expect(await rowsOf(first.json().payload._id)).toEqual({ deployments: 1, subscriptions: 1, checkout: transactionId });
  });

  it('a retry arriving while the first request still waits on Paddle gets the same transaction, made once', async () => {
    const owner = await companyOwner(t.app, 'impatient@example.com');
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Impatient' });
    const before = creates().length;
    slow.creates = { delayMs: 1_000 };
    try {
      const first = postOrder(t.app, owner.cookie, body, key);
      await until(() => creates().length > before, 'the call to Paddle');
      const [a, b] = await Promise.all([first, postOrder(t.app, owner.cookie, body, key)]);
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(b.json().payload._id).toBe(a.json().payload._id);
      expect(b.json().payload.provisionSummary.dataToVendor.transactionId).toBe(a.json().payload.provisionSummary.dataToVendor.transactionId);
      expect(creates().length - before).toBe(1);
      expect(await rowsOf(a.json().payload._id)).toMatchObject({ deployments: 1, subscriptions: 1 });
    } finally {
      delete slow.creates;
    }
  });

  it('an order whose Paddle transaction could not be made is kept; the retry makes the transaction, the order once', async () => {
    const owner = await companyOwner(t.app, 'paddle-down@example.com');
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Paddle was down' });
    const before = creates().length;
    slow.creates = { status: 503 };
    let first;
    try {
      first = await postOrder(t.app, owner.cookie, body, key);
    } finally {
      delete slow.creates;
    }
    // The order is committed before Paddle is called: it stands, with no checkout yet.
    expect(first.statusCode).toBe(201);
    const id = first.json().payload._id as string;
    expect(first.json().payload.provisionSummary.dataToVendor.transactionId).toBeNull();
    expect(await rowsOf(id)).toEqual({ deployments: 1, subscriptions: 1, checkout: null });

    const retry = await postOrder(t.app, owner.cookie, body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().payload._id).toBe(id);
    const transactionId = retry.json().payload.provisionSummary.dataToVendor.transactionId as string;
    expect(transactionId).toMatch(/^txn_fake_\d+$/);
    expect(await rowsOf(id)).toEqual({ deployments: 1, subscriptions: 1, checkout: transactionId });
    // One refused call, one transaction made; the checkout and a further retry reuse it.
    expect(creates().length - before).toBe(2);
    const checkout = await api(t.app, owner.cookie, 'GET', `/payments/checkout/${id}`);
    expect(checkout.json().payload.transactionId).toBe(transactionId);
    expect((await postOrder(t.app, owner.cookie, body, key)).json().payload.provisionSummary.dataToVendor.transactionId).toBe(transactionId);
    expect(creates().length - before).toBe(2);
  });

  it('an order left without its transaction (the process died after the commit) gets it from the checkout, once', async () => {
    const owner = await companyOwner(t.app, 'died@example.com');
    const key = randomUUID();
    const body = orderBody(cat, owner, { name: 'Died after commit' });
    slow.creates = { status: 503 };
    let id: string;
    try {
      id = (await postOrder(t.app, owner.cookie, body, key)).json().payload._id as string;
    } finally {
      delete slow.creates;
    }
    const before = creates().length;
    const checkout = await api(t.app, owner.cookie, 'GET', `/payments/checkout/${id}`);
    const transactionId = checkout.json().payload.transactionId as string;
    expect(transactionId).toMatch(/^txn_fake_\d+$/);
    const retry = await postOrder(t.app, owner.cookie, body, key);
    expect(retry.json().payload).toMatchObject({ _id: id, provisionSummary: { dataToVendor: { transactionId } } });
    expect(creates().length - before).toBe(1);
    expect(await rowsOf(id)).toEqual({ deployments: 1, subscriptions: 1, checkout: transactionId });
  });
});

describe('a change and Paddle, in two steps', () => {
  it('an unpaid order changed while Paddle fails keeps the change; its checkout then makes the new transaction, once', async () => {
    const owner = await companyOwner(t.app, 'change-paddle-down@example.com');
    const order = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload;
    const old = order.provisionSummary.dataToVendor.transactionId as string;
    slow.creates = { status: 503 };
    let changed;
    try {
      changed = await api(t.app, owner.cookie, 'PUT', `/deployments/${order._id}?addProvisionSummary=1`, changeBody(cat, owner, { planCode: BASIC }));
    } finally {
      delete slow.creates;
    }
    expect(changed.statusCode).toBe(200);
    expect(changed.json().payload.provisionSummary.dataToVendor.transactionId).toBeNull();
    // The old price's transaction no longer settles anything, and nothing stands in its place yet.
    const [sub] = await t.app.database.rows<{ checkout: string | null; total: string }>(`select checkout_transaction_id as checkout, quote->>'total' as total from subscriptions where deployment_id = '${order._id}'`);
    expect(sub?.checkout).toBeNull();
    const before = creates().length;
    const checkout = (await api(t.app, owner.cookie, 'GET', `/payments/checkout/${order._id}`)).json().payload;
    expect(checkout.transactionId).toMatch(/^txn_fake_\d+$/);
    expect(checkout.transactionId).not.toBe(old);
    expect(checkout.total.amount).toBe(sub?.total);
    expect((await api(t.app, owner.cookie, 'GET', `/payments/checkout/${order._id}`)).json().payload.transactionId).toBe(checkout.transactionId);
    expect(creates().length - before).toBe(1);
  });

  it('a paid change Paddle accepted but refused here is set back at Paddle, and the server keeps its plan', async () => {
    const owner = await companyOwner(t.app, 'set-back@example.com');
    const order = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload;
    const vendorId = 'sub_set_back';
    const subscription = { id: vendorId, status: 'active', customer_id: 'ctm_back', current_billing_period: { starts_at: new Date(Date.now() - 86_400_000).toISOString(), ends_at: new Date(Date.now() + 29 * 86_400_000).toISOString() } };
    for (const r of await paddlePaysOrder(t.app, order, subscription)) expect(r.json().payload.outcome).toBe('applied');
    await t.app.database.rows(`insert into discount_codes (code, kind, value, max_uses) values ('LASTSEAT', 'percent', 10, 1)`);
    const rows = () => Promise.all([`select plan_code, plan_config from deployments where id = '${order._id}'`, `select quote, status from subscriptions where deployment_id = '${order._id}'`, `select count(*)::int as n from deployment_tasks where deployment_id = '${order._id}'`].map((q) => t.app.database.rows(q)));
    const before = await rows();
    const patches = () => fake.calls.filter((c) => c.method === 'PATCH' && c.url === `/subscriptions/${vendorId}`);
    slow.patches = { delayMs: 500 };
    try {
      const change = api(t.app, owner.cookie, 'PUT', `/deployments/${order._id}`, changeBody(cat, owner, { planCode: BASIC, discountCode: 'LASTSEAT' }));
      await until(() => patches().length > 0, 'the change at Paddle');
      // Someone else takes the code's last use while Paddle answers.
      await t.app.database.rows(`update discount_codes set uses = 1 where code = 'LASTSEAT'`);
      const res = await change;
      expect(res.statusCode).toBe(400);
      expect(res.json().payload.errors).toEqual({ discountCode: ['This discount code has been used up.'] });
    } finally {
      delete slow.patches;
    }
    expect(await rows()).toEqual(before);
    // Paddle got the new items, then the old ones back.
    const sent = patches().map((c) => (c.body.items as { price: { unit_price: { amount: string } } }[]).map((i) => i.price.unit_price.amount));
    expect(sent).toHaveLength(2);
    const stored = before[1]?.[0] as { quote: { lines: { amount: string }[] } };
    expect(sent[1]).toEqual(stored.quote.lines.filter((l) => Number(l.amount) > 0).map((l) => String(Math.round(Number(l.amount) * 100))));
    expect(sent[0]).not.toEqual(sent[1]);
  });
});
