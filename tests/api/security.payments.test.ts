import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { adminCookie, call } from '../support/admin';
import { captureLog } from '../support/logCapture';
import { addMember, BASIC, changeBody, companyOwner, count, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { paddleEvent, paddlePaysOrder, paddleSettings, paddleWebhook, startFakePaddle } from '../support/paddle';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Attacks on money: each attack is performed through the API and must fail with the
 * error envelope and change nothing (table counts, the rows involved, audit, mails, tasks).
 */

const GROWTH = 'v3.mau_10_000_gcp.base';
const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };

type Reply = { statusCode: number; json: () => { code: string; message: string; errorId?: string; payload?: { errors?: Record<string, string[]> } } };

async function refusedUnchanged(app: FastifyInstance, send: () => Promise<Reply>, status: number, code: string, rows: string[] = []) {
  const snapshot = async () => ({ counts: await tableCounts(app), rows: await Promise.all(rows.map((q) => app.database.rows(q))) });
  const before = await snapshot();
  const res = await send();
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ code, message: expect.any(String) });
  expect(await snapshot()).toEqual(before);
  return res.json();
}

const subRow = (deploymentId: string) => `select status, vendor, quote, pending_change, checkout_transaction_id, vendor_subscription_id from subscriptions where deployment_id = '${deploymentId}'`;
const depRow = (deploymentId: string) => `select plan_id, plan_code, plan_config, payment_cycle, free, status from deployments where id = '${deploymentId}'`;

// ---- 4. Production without Paddle: the stand-in is off unless the operator turns it on ----------

describe('production without PADDLE_* (item 4)', () => {
  let prod: TestApp;
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof companyOwner>>;
  const log = captureLog();
  beforeAll(async () => {
    prod = await createTestApp({ ...limits, NODE_ENV: 'production' }, { logger: { level: 'warn', stream: log.stream } });
    cat = await loadCatalogue(prod.app);
    owner = await companyOwner(prod.app, 'prod-owner@example.com');
  });
  afterAll(() => prod.close());

  it('refuses a paid order with a clear message, changing nothing, and takes a free one', async () => {
    expect(prod.config.payments).toBe('off');
    expect(log.text()).toContain('paid orders are refused');
    const refused = await refusedUnchanged(prod.app, () => postOrder(prod.app, owner.cookie, orderBody(cat, owner, { planCode: BASIC, paymentCycle: 'year' })), 409, 'PAYMENTS_UNAVAILABLE');
    expect(refused.message).toBe('Paid plans cannot be ordered right now: no payment provider is configured. Free plans can still be ordered.');
    const free = await postOrder(prod.app, owner.cookie, orderBody(cat, owner, { planCode: FREE }));
    expect(free.statusCode).toBe(201);
  });

  it('refuses a change to a paid plan, and a test card on an order left pending: nothing activates', async () => {
    const id = (await postOrder(prod.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Free one' }))).json().payload._id as string;
    await refusedUnchanged(prod.app, () => call(prod.app, 'PUT', `/deployments/${id}`, owner.cookie, changeBody(cat, owner, { planCode: STARTER })), 409, 'PAYMENTS_UNAVAILABLE', [subRow(id), depRow(id)]);
    // An order made while a stand-in was configured, still waiting for its payment.
    await prod.app.database.rows(`update subscriptions set status = 'pending', vendor = 'paddle' where deployment_id = '${id}'`);
    await refusedUnchanged(prod.app, () => pay(prod.app, owner.cookie, id), 409, 'PAYMENTS_UNAVAILABLE', [subRow(id), depRow(id)]);
  });
});

describe('production with PAYMENTS_STAND_IN=true (item 4)', () => {
  it('runs the stand-in only when asked, and says so at start', async () => {
    const log = captureLog();
    const demo = await createTestApp({ ...limits, NODE_ENV: 'production', PAYMENTS_STAND_IN: 'true' }, { logger: { level: 'warn', stream: log.stream } });
    try {
      expect(demo.config.payments).toBe('stand-in');
      expect(log.text()).toContain('PAYMENTS_STAND_IN=true');
      const cat = await loadCatalogue(demo.app);
      const owner = await companyOwner(demo.app, 'demo@example.com');
      const id = (await postOrder(demo.app, owner.cookie, orderBody(cat, owner))).json().payload._id as string;
      expect((await pay(demo.app, owner.cookie, id)).json().payload.subscription.status).toBe('active');
    } finally {
      await demo.close();
    }
  });
});

// ---- 6, 7, 8, 17, 18 (stand-in mode, as in development) ------------------------------------------

describe('ordering rules (items 6, 7, 8, 17, 18)', () => {
  let t: TestApp;
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof companyOwner>>;
  beforeAll(async () => {
    t = await createTestApp(limits);
    cat = await loadCatalogue(t.app);
    owner = await companyOwner(t.app, 'rules-owner@example.com');
  });
  afterAll(() => t.close());

  it('6. a company limited to a plan group orders, previews and changes to its plans only', async () => {
    const admin = await adminCookie(t.app);
    const limited = await companyOwner(t.app, 'grouped@example.com');
    const group = (await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Small only', description: '' })).json().payload._id as string;
    const planIds = [cat.plan(FREE), cat.plan(STARTER)];
    expect((await call(t.app, 'PUT', `/admin/plan-groups/${group}`, admin, { id: group, name: 'Small only', description: '', planIds, companyIds: [limited.companyId] })).statusCode).toBe(200);

    const outside = await refusedUnchanged(t.app, () => postOrder(t.app, limited.cookie, orderBody(cat, limited, { planCode: GROWTH })), 400, 'VALIDATION_FAILED');
    expect(outside.payload?.errors).toEqual({ plan: ['This plan is not offered to your company.'] });
    const preview = await call(t.app, 'POST', '/deployments/generate-preview', limited.cookie, { ...orderBody(cat, limited, { planCode: GROWTH }) });
    expect(preview.statusCode).toBe(400);

    const id = (await postOrder(t.app, limited.cookie, orderBody(cat, limited, { planCode: STARTER }))).json().payload._id as string;
    expect(await count(t.app, `deployments where id = '${id}'`)).toBe(1);
    // Edit mode: the same catalogue, for a change to another plan.
    const change = await refusedUnchanged(t.app, () => call(t.app, 'PUT', `/deployments/${id}`, limited.cookie, changeBody(cat, limited, { planCode: GROWTH })), 400, 'VALIDATION_FAILED', [subRow(id), depRow(id)]);
    expect(change.payload?.errors).toEqual({ plan: ['This plan is not offered to your company.'] });
    const review = await call(t.app, 'POST', '/deployments/generate-review', limited.cookie, { _id: id, ...changeBody(cat, limited, { planCode: GROWTH }) });
    expect(review.statusCode).toBe(400);
    // A company without a group still orders from the public catalogue.
    expect((await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: GROWTH }))).statusCode).toBe(201);
  });

  it('7. a free server changed to a paid plan keeps its free plan until the payment is confirmed', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Free to paid' }))).json().payload._id as string;
    const [before] = await t.app.database.rows(depRow(id));
    const tasks = await count(t.app, `deployment_tasks where deployment_id = '${id}'`);
    const res = await call(t.app, 'PUT', `/deployments/${id}`, owner.cookie, changeBody(cat, owner, { planCode: BASIC, planConfig: { region: cat.region('us-central1'), size: cat.size('mau_5_000'), features: [cat.feature('domain.default'), cat.feature('retention.12m'), cat.feature('backup.daily')] } }));
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ paymentRequired: true, flags: { free: true }, subscription: { status: 'pending' } });
    // The server is sized, restored and provisioned from this row: still the free plan, no resize queued.
    expect((await t.app.database.rows(depRow(id)))[0]).toEqual(before);
    expect(await count(t.app, `deployment_tasks where deployment_id = '${id}'`)).toBe(tasks);
    const [waiting] = await t.app.database.rows<{ pending_change: { planCode: string } | null }>(subRow(id));
    expect(waiting?.pending_change).toMatchObject({ planCode: BASIC, free: false });

    // Paid: the change reaches the server, and the machine is resized.
    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    const [after] = await t.app.database.rows<{ plan_code: string; free: boolean }>(depRow(id));
    expect(after).toMatchObject({ plan_code: BASIC, free: false });
    expect(await count(t.app, `deployment_tasks where deployment_id = '${id}' and type = 'modify'`)).toBe(1);
    expect(await count(t.app, `subscriptions where deployment_id = '${id}' and pending_change is null and status = 'active'`)).toBe(1);
    expect(await count(t.app, `audit_logs where action = 'deployment.planChange' and target_id = '${id}'`)).toBe(1);
  });

  it('7. going back to free before paying drops the waiting change: nothing is due', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Changed mind' }))).json().payload._id as string;
    expect((await call(t.app, 'PUT', `/deployments/${id}`, owner.cookie, changeBody(cat, owner, { planCode: STARTER }))).statusCode).toBe(200);
    const back = await call(t.app, 'PUT', `/deployments/${id}`, owner.cookie, changeBody(cat, owner, { planCode: FREE }));
    expect(back.statusCode).toBe(200);
    expect(back.json().payload).toMatchObject({ paymentRequired: false, subscription: { vendor: 'free', status: 'active' } });
    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id), 409, 'PAYMENT_NOT_DUE');
  });

  it('8. a free plan cannot set or verify a custom domain; a plan with the option can', async () => {
    const live = async (id: string) => {
      // As if the worker had provisioned it: running on a machine, no task open.
      await t.app.database.rows(`update deployments set status = 'running' where id = '${id}'`);
      await t.app.database.rows(`update deployment_tasks set status = 'completed' where deployment_id = '${id}'`);
      await t.app.database.rows(`insert into deployment_runtime (deployment_id, machine_id, url) values ('${id}', 'm-${id.slice(0, 8)}', 'https://x.example') on conflict (deployment_id) do update set machine_id = excluded.machine_id`);
    };
    const free = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Free domain' }))).json().payload._id as string;
    await live(free);
    const runtime = `select custom_domain, ssl_state, verification_token from deployment_runtime where deployment_id = '${free}'`;
    await refusedUnchanged(t.app, () => call(t.app, 'POST', `/deployments/${free}/update-domain`, owner.cookie, { domain: 'stats.example.org' }), 409, 'DOMAIN_NOT_IN_PLAN', [runtime]);
    // A domain written before the rule existed cannot be verified (and certified) either.
    await t.app.database.rows(`update deployment_runtime set custom_domain = 'stats.example.org' where deployment_id = '${free}'`);
    await refusedUnchanged(t.app, () => call(t.app, 'POST', `/deployments/${free}/verify-domain`, owner.cookie, {}), 409, 'DOMAIN_NOT_IN_PLAN', [runtime]);
    // Going back to the default address is always allowed.
    expect((await call(t.app, 'POST', `/deployments/${free}/update-domain`, owner.cookie, { domain: null })).statusCode).toBe(200);

    const custom = orderBody(cat, owner, { name: 'Own domain', planConfig: { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] } });
    const paid = (await postOrder(t.app, owner.cookie, custom)).json().payload._id as string;
    expect((await pay(t.app, owner.cookie, paid)).statusCode).toBe(200);
    await live(paid);
    expect((await call(t.app, 'POST', `/deployments/${paid}/update-domain`, owner.cookie, { domain: 'stats.example.org' })).statusCode).toBe(200);
  });

  it('17. a code with one use left is taken by one of two racing orders, and counted once however often the plan changes', async () => {
    await t.app.database.rows(`insert into discount_codes (code, kind, value, max_uses, uses) values ('LASTONE', 'percent', 50, 1, 0), ('TWICE', 'percent', 10, 2, 0)`);
    const racer = await companyOwner(t.app, 'racer@example.com');
    const [a, b] = await Promise.all([postOrder(t.app, racer.cookie, orderBody(cat, racer, { discountCode: 'LASTONE' })), postOrder(t.app, racer.cookie, orderBody(cat, racer, { discountCode: 'LASTONE' }))]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([201, 400]);
    const loser = a.statusCode === 400 ? a : b;
    expect(loser.json().payload.errors).toEqual({ discountCode: ['This discount code has been used up.'] });
    expect(await count(t.app, `discount_codes where code = 'LASTONE' and uses = 1`)).toBe(1);
    expect(await count(t.app, `deployments where company_id = '${racer.companyId}'`)).toBe(1);

    // The race made certain: another order takes the last use after this one was priced and before
    // it is counted (a trigger plays that order). The guarded update refuses; nothing is kept.
    await t.app.database.rows(`insert into discount_codes (code, kind, value, max_uses, uses) values ('RACE', 'percent', 50, 1, 0)`);
    await t.app.database.rows(`create function take_last_use() returns trigger language plpgsql as $$ begin update discount_codes set uses = max_uses where code = 'RACE'; return new; end $$`);
    await t.app.database.rows(`create trigger take_last_use after insert on subscriptions for each row execute function take_last_use()`);
    try {
      const raced = await refusedUnchanged(t.app, () => postOrder(t.app, racer.cookie, orderBody(cat, racer, { discountCode: 'RACE' })), 400, 'VALIDATION_FAILED', [`select uses from discount_codes where code = 'RACE'`]);
      expect(raced.payload?.errors).toEqual({ discountCode: ['This discount code has been used up.'] });
    } finally {
      await t.app.database.rows(`drop trigger take_last_use on subscriptions`);
      await t.app.database.rows(`drop function take_last_use()`);
    }

    const id = (await postOrder(t.app, racer.cookie, orderBody(cat, racer, { discountCode: 'TWICE', name: 'Twice' }))).json().payload._id as string;
    for (const planCode of [BASIC, GROWTH]) {
      const res = await call(t.app, 'PUT', `/deployments/${id}`, racer.cookie, changeBody(cat, racer, { planCode, discountCode: 'TWICE' }));
      expect(res.statusCode).toBe(200);
    }
    expect(await count(t.app, `discount_codes where code = 'TWICE' and uses = 1`)).toBe(1);
    expect(await count(t.app, `discount_uses where code = 'TWICE'`)).toBe(1);
    // The winner's server changes plan with its exhausted code: still its own, not counted again.
    const winner = (a.statusCode === 201 ? a : b).json().payload._id as string;
    expect((await call(t.app, 'PUT', `/deployments/${winner}`, racer.cookie, changeBody(cat, racer, { planCode: BASIC, discountCode: 'LASTONE' }))).statusCode).toBe(200);
    expect(await count(t.app, `discount_codes where code = 'LASTONE' and uses = 1`)).toBe(1);
  });

  it('18. a viewer cannot open a checkout (which could create a Paddle transaction)', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Viewer checkout' }))).json().payload._id as string;
    const viewer = await addMember(t.app, owner.companyId, 'checkout-viewer@example.com', 'viewer');
    await refusedUnchanged(t.app, () => call(t.app, 'GET', `/payments/checkout/${id}`, viewer), 403, 'BILLING_ROLE_REQUIRED', [subRow(id)]);
  });
});

// ---- 9, 18 against the fake Paddle API ------------------------------------------------------------

describe('Paddle notifications and checkouts (items 9, 18)', () => {
  let p: TestApp;
  let fake: Awaited<ReturnType<typeof startFakePaddle>>;
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof companyOwner>>;
  let big: { deploymentId: string; subscriptionId: string; companyId: string; transactionId: string };
  beforeAll(async () => {
    fake = await startFakePaddle();
    p = await createTestApp({ ...limits, ...paddleSettings(fake.url) });
    cat = await loadCatalogue(p.app);
    owner = await companyOwner(p.app, 'paddle-attack@example.com');
    const res = await postOrder(p.app, owner.cookie, orderBody(cat, owner, { planCode: GROWTH, paymentCycle: 'year' }));
    const vendor = res.json().payload.provisionSummary.dataToVendor;
    big = { ...vendor.customData, transactionId: vendor.transactionId };
  });
  afterAll(async () => {
    await p.close();
    fake.close();
  });

  const involved = () => [subRow(big.deploymentId), depRow(big.deploymentId), `select count(*)::int as n from deployment_tasks where deployment_id = '${big.deploymentId}'`, `select action from audit_logs where target_id in ('${big.subscriptionId}', '${big.deploymentId}') order by action`];
  const snapshot = async () => Promise.all(involved().map((q) => p.app.database.rows(q)));
  const cheapItems = { currency_code: 'USD', items: [{ quantity: 1, price: { unit_price: { amount: '100', currency_code: 'USD' } } }] };
  const subscription = (extra: Record<string, unknown>) => ({ id: 'sub_attacker', status: 'active', customer_id: 'ctm_attacker', current_billing_period: { starts_at: '2031-01-01T00:00:00Z', ends_at: '2032-01-01T00:00:00Z' }, custom_data: big, ...cheapItems, ...extra });
  const transaction = (extra: Record<string, unknown>) => ({
    id: 'txn_attacker', status: 'completed', origin: 'web', subscription_id: 'sub_attacker', customer_id: 'ctm_attacker', currency_code: 'USD', billed_at: '2031-01-01T00:00:00Z', custom_data: big,
    details: { totals: { subtotal: '100', discount: '0', tax: '0', total: '100', grand_total: '100' }, line_items: [{ quantity: 1, product: { name: 'Cheap' }, totals: { subtotal: '100', total: '100' } }] },
    payments: [{ status: 'captured', method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 1, expiry_year: 2035 } } }],
    ...extra,
  });

  it("9. a checkout paid elsewhere that names our subscription in custom_data settles nothing", async () => {
    const before = await snapshot();
    const events = [
      paddleEvent('subscription.created', new Date(), subscription({ transaction_id: 'txn_attacker' })),
      paddleEvent('subscription.activated', new Date(), subscription({ transaction_id: 'txn_attacker' })),
      paddleEvent('transaction.completed', new Date(), transaction({})),
    ];
    for (const event of events) {
      const res = await paddleWebhook(p.app, event);
      expect(res.statusCode).toBe(200);
      expect(res.json().payload.outcome).toBe('unmatched');
    }
    expect(await snapshot()).toEqual(before);
    expect(await count(p.app, `transactions where vendor_transaction_id = 'txn_attacker'`)).toBe(0);
  });

  it('9. our checkout transaction with another amount, currency or items does not activate the order', async () => {
    const before = await snapshot();
    const cheapSub = await paddleWebhook(p.app, paddleEvent('subscription.activated', new Date(), subscription({ id: 'sub_ours', transaction_id: big.transactionId })));
    expect(cheapSub.json().payload.outcome).toBe('mismatch');
    const [quote] = await p.app.database.rows<{ total: string; subtotal: string }>(`select quote->>'total' as total, quote->>'subtotal' as subtotal from subscriptions where id = '${big.subscriptionId}'`);
    const cents = String(Math.round(Number(quote?.total) * 100));
    const euros = await paddleWebhook(p.app, paddleEvent('subscription.activated', new Date(), subscription({ id: 'sub_ours', transaction_id: big.transactionId, currency_code: 'EUR', items: [{ quantity: 1, price: { unit_price: { amount: cents, currency_code: 'EUR' } } }] })));
    expect(euros.json().payload.outcome).toBe('mismatch');
    expect(await snapshot()).toEqual(before);

    // The transaction we opened, completed for less: recorded (money moved), but it settles nothing.
    const paidLess = await paddleWebhook(p.app, paddleEvent('transaction.completed', new Date(), transaction({ id: big.transactionId, subscription_id: 'sub_ours' })));
    expect(paidLess.json().payload.outcome).toBe('mismatch');
    const [sub] = await p.app.database.rows<{ status: string }>(subRow(big.deploymentId));
    expect(sub?.status).toBe('pending');
    const [dep] = await p.app.database.rows<{ status: string }>(depRow(big.deploymentId));
    expect(dep?.status).toBe('provisioned');
    expect(await count(p.app, `audit_logs where action = 'subscription.status' and target_id = '${big.subscriptionId}'`)).toBe(0);
  });

  it('9. a discounted order asks Paddle for the discounted price, and settles for exactly that', async () => {
    await p.app.database.rows(`insert into discount_codes (code, kind, value) values ('HALF', 'percent', 50)`);
    const res = await postOrder(p.app, owner.cookie, orderBody(cat, owner, { discountCode: 'HALF', name: 'Half price' }));
    const order = res.json().payload;
    const vendor = order.provisionSummary.dataToVendor;
    const created = fake.calls.filter((c) => c.method === 'POST' && c.url === '/transactions').at(-1);
    expect(created?.body).toMatchObject({ currency_code: 'USD', discount: { type: 'flat', amount: '2450', recur: true }, items: [{ price: { unit_price: { amount: '4900' } } }] });
    const sub = { id: 'sub_half', customer_id: 'ctm_half', current_billing_period: { starts_at: '2031-01-01T00:00:00Z', ends_at: '2031-02-01T00:00:00Z' } };
    for (const r of await paddlePaysOrder(p.app, order, sub)) expect(r.json().payload.outcome).toBe('applied');
    expect(await count(p.app, `subscriptions where id = '${vendor.customData.subscriptionId}' and status = 'active'`)).toBe(1);
  });

  it('18. the checkout reuses the open transaction: opening it again creates nothing at Paddle, and is capped', async () => {
    const posts = () => fake.calls.filter((c) => c.method === 'POST' && c.url === '/transactions').length;
    const made = posts();
    const first = await call(p.app, 'GET', `/payments/checkout/${big.deploymentId}`, owner.cookie);
    expect(first.json().payload).toMatchObject({ paymentRequired: true, transactionId: big.transactionId });
    for (let i = 0; i < 5; i++) expect((await call(p.app, 'GET', `/payments/checkout/${big.deploymentId}`, owner.cookie)).json().payload.transactionId).toBe(big.transactionId);
    expect(posts()).toBe(made);
    let last = first;
    for (let i = 0; i < 30 && last.statusCode !== 429; i++) last = await call(p.app, 'GET', `/payments/checkout/${big.deploymentId}`, owner.cookie);
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many requests') });
    expect(posts()).toBe(made);
  });
});
