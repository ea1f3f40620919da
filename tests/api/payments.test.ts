import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, changeBody, companyOwner, count, loadCatalogue, orderBody, pay, postOrder, BASIC, type Catalogue } from '../support/orders';
import { paddleEvent, paddleSettings, paddleWebhook, startFakePaddle, type PaddleCall } from '../support/paddle';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp; // stand-in mode (no PADDLE_*)
let p: TestApp; // Paddle mode, against a local fake of Paddle's API
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let paddleCalls: PaddleCall[];

beforeAll(async () => {
  fake = await startFakePaddle();
  paddleCalls = fake.calls;
  const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };
  t = await createTestApp(limits);
  p = await createTestApp({ ...limits, ...paddleSettings(fake.url) });
});
afterAll(async () => {
  await t.close();
  await p.close();
  fake.close();
});

async function refusedUnchanged(app: TestApp['app'], send: () => Promise<{ statusCode: number; json: () => { code: string; message: string } }>, status: number, code: string) {
  const before = await tableCounts(app);
  const res = await send();
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
  expect(await tableCounts(app)).toEqual(before);
  return res.json();
}

describe('stand-in checkout (no PADDLE_* configured)', () => {
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof companyOwner>>;
  beforeAll(async () => {
    cat = await loadCatalogue(t.app);
    owner = await companyOwner(t.app, 'payer@example.com');
  });
  const paidOrder = async () => (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload._id as string;

  it('audits every step of a paid order: ordered, paid, provisioned (with its task)', async () => {
    const id = await paidOrder();
    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    const audit = await t.app.database.rows<{ action: string; paid: boolean | null; task: string | null }>(
      `select action, (after->>'paid')::boolean as paid, after->>'taskId' as task from audit_logs where target_id = '${id}' and action like 'deployment.%' order by at, id`,
    );
    expect(audit.map((row) => row.action)).toEqual(['deployment.order', 'deployment.provision']);
    const provision = audit[1];
    expect(provision?.paid).toBe(true);
    const [task] = await t.app.database.rows<{ id: string; type: string }>(`select id, type from deployment_tasks where deployment_id = '${id}'`);
    expect(task).toMatchObject({ type: 'provision', id: provision?.task });
  });

  it('tells the browser to use the stand-in, with no token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/payments/config' })).json().payload).toEqual({ mode: 'stand-in', environment: null, clientToken: null });
  });

  it('pays with 4242…: signed notifications activate the subscription and record the transaction', async () => {
    const id = await paidOrder();
    const summary = (await t.app.inject({ method: 'GET', url: `/api/v1/payments/checkout/${id}`, headers: { cookie: owner.cookie } })).json().payload;
    expect(summary).toMatchObject({ mode: 'stand-in', paymentRequired: true, total: { amount: '49.00', currency: 'USD' }, customer: { email: 'payer@example.com' } });
    const res = await pay(t.app, owner.cookie, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'completed', subscription: { status: 'active', vendor: 'paddle' } });
    expect(res.json().payload.subscription.currentPeriod).not.toBeNull();
    const [dep] = await t.app.database.rows<{ status: string }>(`select status from deployments where id = '${id}'`);
    expect(dep?.status).toBe('initializing');
    const events = await t.app.database.rows<{ event_type: string; outcome: string }>(`select event_type, outcome from payment_events where payload->'data'->'custom_data'->>'deploymentId' = '${id}' order by occurred_at`);
    expect(events).toEqual([
      { event_type: 'subscription.created', outcome: 'applied' },
      { event_type: 'subscription.activated', outcome: 'applied' },
      { event_type: 'transaction.completed', outcome: 'applied' },
    ]);
    const [tx] = await t.app.database.rows<{ total: string; subtotal: string; tax: string; currency: string }>(`select total::text, subtotal::text, tax::text, currency from transactions where deployment_id = '${id}'`);
    expect(tx).toEqual({ total: '49.00', subtotal: '49.00', tax: '0.00', currency: 'USD' });

    const billing = (await t.app.inject({ method: 'GET', url: `/api/v1/companies/${owner.companyId}/billing`, headers: { cookie: owner.cookie } })).json().payload;
    expect(billing.card).toMatchObject({ brand: 'visa', last4: '4242', expiryMonth: 12, expiryYear: 2039 });
    expect(billing.transactions[0]).toMatchObject({ deploymentId: id, total: '49.00', status: 'completed' });
    expect(billing.pastDue).toEqual({ count: 0, since: null, pauseAfter: null });
    const receipt = await t.app.inject({ method: 'GET', url: `/api/v1/companies/${owner.companyId}/transactions/${billing.transactions[0]._id}/receipt`, headers: { cookie: owner.cookie } });
    expect(receipt.statusCode).toBe(200);
    // A printable receipt page (tests/api/invoiceDocuments.test.ts reads it in full).
    expect(receipt.headers['content-type']).toBe('text/html; charset=utf-8');
    const receiptText = receipt.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(receiptText).toMatch(/\$49\.00 paid .*Visa ending in 4242 For invoice INV-\d{6}/);
    expect(receiptText).toContain('payer@example.com');

    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id), 409, 'PAYMENT_NOT_DUE');
  });

  it('declines 4000 0000 0000 0002 and 4000 0000 0000 9995 with the reason, leaving no active subscription and no row', async () => {
    const id = await paidOrder();
    const declined = await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id, '4000 0000 0000 0002'), 402, 'PAYMENT_DECLINED');
    expect(declined.message).toBe('The payment was declined: the card was declined.');
    const funds = await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id, '4000000000009995'), 402, 'PAYMENT_DECLINED');
    expect(funds.message).toBe('The payment was declined: the card has insufficient funds.');
    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id, '4242424242424242', '01/20'), 402, 'PAYMENT_DECLINED');
    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id, '4242424242424241'), 402, 'PAYMENT_DECLINED');
    const [sub] = await t.app.database.rows<{ status: string }>(`select status from subscriptions where deployment_id = '${id}'`);
    expect(sub?.status).toBe('pending');
  });

  it('takes a past-due renewal with a new card: declined changes nothing; paid, the subscription is active again and the new card is on file', async () => {
    const id = await paidOrder();
    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    // Paddle failed to renew the card (the stand-in cannot be told to, so the state is set here).
    await t.app.database.rows(`update subscriptions set status = 'past_due', past_due_since = now() - interval '3 days' where deployment_id = '${id}'`);
    const [period] = await t.app.database.rows<{ start: string }>(`select current_period_start::text as start from subscriptions where deployment_id = '${id}'`);
    const summary = (await t.app.inject({ method: 'GET', url: `/api/v1/payments/checkout/${id}`, headers: { cookie: owner.cookie } })).json().payload;
    expect(summary).toMatchObject({ paymentRequired: true, purpose: 'pastDue', transactionId: null, status: 'past_due', total: { amount: '49.00' } });

    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id, '4000000000009995'), 402, 'PAYMENT_DECLINED');
    const paid = await pay(t.app, owner.cookie, id, '5555555555554444');
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payload.subscription).toMatchObject({ status: 'active' });
    const [sub] = await t.app.database.rows<{ status: string; past_due_since: string | null; start: string; last4: string }>(
      `select status, past_due_since, current_period_start::text as start, card->>'last4' as last4 from subscriptions where deployment_id = '${id}'`,
    );
    expect(sub).toEqual({ status: 'active', past_due_since: null, start: period?.start, last4: '4444' });
    const charges = await t.app.database.rows<{ origin: string; total: string }>(`select origin, total::text from transactions where deployment_id = '${id}' order by billed_at`);
    expect(charges).toEqual([
      { origin: 'web', total: '49.00' },
      { origin: 'subscription_recurring', total: '49.00' },
    ]);
    // Every change the payments made is in the audit log, written by the system (the notifications).
    const audit = await t.app.database.rows<{ action: string; actor_id: string | null; before: unknown; after: { status?: string; origin?: string } }>(
      `select action, actor_id, before, after from audit_logs where target_id = (select id::text from subscriptions where deployment_id = '${id}') order by at, action desc`,
    );
    expect(audit.map((a) => [a.action, a.actor_id, a.action === 'subscription.payment' ? a.after.origin : a.after.status])).toEqual([
      ['subscription.status', null, 'active'],
      ['subscription.payment', null, 'web'],
      ['subscription.payment', null, 'subscription_recurring'],
      ['subscription.status', null, 'active'],
    ]);
    await refusedUnchanged(t.app, () => pay(t.app, owner.cookie, id), 409, 'PAYMENT_NOT_DUE');
  });

  it('lets neither a viewer nor a stranger pay, read the checkout or the billing', async () => {
    const id = await paidOrder();
    const viewer = await addMember(t.app, owner.companyId, 'billing-viewer@example.com', 'viewer');
    await refusedUnchanged(t.app, () => pay(t.app, viewer, id), 403, 'BILLING_ROLE_REQUIRED');
    const stranger = await companyOwner(t.app, 'billing-stranger@example.com');
    await refusedUnchanged(t.app, () => pay(t.app, stranger.cookie, id), 403, 'NOT_A_MEMBER');
    await refusedUnchanged(t.app, () => t.app.inject({ method: 'GET', url: `/api/v1/payments/checkout/${id}`, headers: { cookie: stranger.cookie } }), 403, 'NOT_A_MEMBER');
    await refusedUnchanged(t.app, () => t.app.inject({ method: 'GET', url: `/api/v1/companies/${owner.companyId}/billing`, headers: { cookie: viewer } }), 403, 'BILLING_ROLE_REQUIRED');
    await refusedUnchanged(t.app, () => t.app.inject({ method: 'GET', url: `/api/v1/deployments/pastdue/${owner.companyId}`, headers: { cookie: stranger.cookie } }), 403, 'NOT_A_MEMBER');
  });

  it('refuses a notification not signed with the stand-in secret', async () => {
    await refusedUnchanged(t.app, () => paddleWebhook(t.app, paddleEvent('subscription.canceled', new Date(), { id: 'sub_x', status: 'canceled' }), { secret: 'guessed' }), 401, 'WEBHOOK_SIGNATURE_INVALID');
  });
});

// ---- Paddle mode: notifications signed with the configured secret -------------------------

describe('Paddle mode', () => {
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof companyOwner>>;
  let ids: { deploymentId: string; subscriptionId: string; companyId: string };
  let checkoutTxn: string;
  const subData = (status: string, extra: Record<string, unknown> = {}) => ({
    id: `sub_${ids.subscriptionId.slice(0, 8)}`,
    transaction_id: checkoutTxn,
    status,
    currency_code: 'USD',
    items: [{ quantity: 1, price: { unit_price: { amount: '4900', currency_code: 'USD' } } }],
    customer_id: 'ctm_1',
    current_billing_period: { starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' },
    next_billed_at: '2030-02-01T00:00:00Z',
    scheduled_change: null,
    custom_data: ids,
    ...extra,
  });
  const subStatus = async () => (await p.app.database.rows<{ status: string }>(`select status from subscriptions where id = '${ids.subscriptionId}'`))[0]?.status;

  beforeAll(async () => {
    cat = await loadCatalogue(p.app);
    owner = await companyOwner(p.app, 'paddle@example.com');
    const res = await postOrder(p.app, owner.cookie, orderBody(cat, owner));
    expect(res.statusCode).toBe(201);
    ids = res.json().payload.provisionSummary.dataToVendor.customData;
    checkoutTxn = res.json().payload.provisionSummary.dataToVendor.transactionId;
  });

  it('creates the checkout transaction at Paddle with our prices and exposes only the client token', async () => {
    const created = paddleCalls.find((c) => c.method === 'POST' && c.url === '/transactions');
    expect(created?.auth).toBe('Bearer pdl_sdbx_apikey_test');
    expect(created?.body).toMatchObject({ custom_data: ids, items: [{ quantity: 1, price: { product_id: 'pro_test', name: 'Starter', unit_price: { amount: '4900', currency_code: 'USD' }, billing_cycle: { interval: 'month', frequency: 1 } } }] });
    expect((await p.app.inject({ method: 'GET', url: '/api/v1/payments/config' })).json().payload).toEqual({ mode: 'paddle', environment: 'sandbox', clientToken: 'test_clienttoken' });
    await refusedUnchanged(p.app, () => pay(p.app, owner.cookie, ids.deploymentId), 404, 'NOT_FOUND');
  });

  it('refuses a wrong secret, a stale or future timestamp, a tampered body and a missing header: 401, nothing stored', async () => {
    const body = paddleEvent('subscription.activated', new Date(), subData('active'));
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { secret: 'not-the-secret' }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { ts: Math.floor(Date.now() / 1000) - 301 }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { ts: Math.floor(Date.now() / 1000) + 301 }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { tamper: true }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { header: null }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, body, { header: 'h1=abc' }), 401, 'WEBHOOK_SIGNATURE_INVALID');
    expect(await subStatus()).toBe('pending');
  });

  it('applies a verified notification once: the same one twice has one effect; active once the checkout transaction is paid', async () => {
    const activated = paddleEvent('subscription.activated', new Date('2030-01-01T00:00:01Z'), subData('active'));
    const first = await paddleWebhook(p.app, activated);
    expect(first.statusCode).toBe(200);
    expect(first.json().payload).toMatchObject({ duplicate: false, outcome: 'applied' });
    // The subscription exists at Paddle, but its checkout's transaction has not completed yet.
    expect(await subStatus()).toBe('pending');
    const completed = paddleEvent('transaction.completed', new Date('2030-01-01T00:00:02Z'), {
      id: checkoutTxn, status: 'completed', origin: 'web', subscription_id: subData('active').id, customer_id: 'ctm_1', invoice_number: '325-10566', currency_code: 'USD', billed_at: '2030-01-01T00:00:02Z', custom_data: ids,
      details: { totals: { subtotal: '4900', discount: '0', tax: '931', total: '5831', grand_total: '5831' }, line_items: [{ quantity: 1, product: { name: 'Starter' }, totals: { subtotal: '4900', total: '5831' } }] },
      payments: [{ status: 'captured', method_details: { type: 'card', card: { type: 'mastercard', last4: '4444', expiry_month: 3, expiry_year: 2031 } } }],
    });
    expect((await paddleWebhook(p.app, completed)).statusCode).toBe(200);
    expect(await subStatus()).toBe('active');
    const before = await tableCounts(p.app);
    const again = await paddleWebhook(p.app, completed);
    expect(again.statusCode).toBe(200);
    expect(again.json().payload).toMatchObject({ duplicate: true });
    expect(await tableCounts(p.app)).toEqual(before);
    const rows = await p.app.database.rows<{ total: string; tax: string; invoice_number: string }>(`select total::text, tax::text, invoice_number from transactions where vendor_transaction_id = '${checkoutTxn}'`);
    expect(rows).toEqual([{ total: '58.31', tax: '9.31', invoice_number: '325-10566' }]);
  });

  it('upgrades through Paddle subscription update with immediate proration', async () => {
    const change = changeBody(cat, owner, { planCode: BASIC });
    const res = await p.app.inject({ method: 'PUT', url: `/api/v1/deployments/${ids.deploymentId}`, payload: change, headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(200);
    const patch = paddleCalls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe(`/subscriptions/${subData('active').id}`);
    expect(patch?.body).toMatchObject({ proration_billing_mode: 'prorated_immediately', items: [{ price: { unit_price: { amount: '9900' } } }] });
  });

  it('lists a past-due server with its pause date, and ignores an older event delivered late', async () => {
    expect((await paddleWebhook(p.app, paddleEvent('subscription.past_due', new Date('2030-01-05T00:00:00Z'), subData('past_due')))).statusCode).toBe(200);
    const pastDue = (await p.app.inject({ method: 'GET', url: `/api/v1/deployments/pastdue/${owner.companyId}`, headers: { cookie: owner.cookie } })).json().payload;
    expect(pastDue).toEqual([{ _id: ids.deploymentId, name: 'My Beacon Server', pastDueSince: '2030-01-05T00:00:00.000Z', pauseAfter: '2030-01-19T00:00:00.000Z' }]);
    // The checkout of a past-due server opens Paddle's card-update transaction for its subscription.
    const summary = (await p.app.inject({ method: 'GET', url: `/api/v1/payments/checkout/${ids.deploymentId}`, headers: { cookie: owner.cookie } })).json().payload;
    expect(summary).toMatchObject({ mode: 'paddle', paymentRequired: true, purpose: 'pastDue', transactionId: 'txn_update_card' });
    expect(paddleCalls.at(-1)).toMatchObject({ method: 'GET', url: `/subscriptions/${subData('past_due').id}/update-payment-method-transaction`, auth: 'Bearer pdl_sdbx_apikey_test' });

    expect((await paddleWebhook(p.app, paddleEvent('subscription.canceled', new Date('2030-01-10T00:00:00Z'), subData('canceled')))).statusCode).toBe(200);
    const late = await paddleWebhook(p.app, paddleEvent('subscription.activated', new Date('2030-01-09T00:00:00Z'), subData('active')));
    expect(late.statusCode).toBe(200);
    expect(late.json().payload.outcome).toBe('stale');
    expect(await subStatus()).toBe('canceled');
    expect(await count(p.app, `payment_events where outcome = 'stale'`)).toBe(1);
  });

  it('refuses a correctly signed body that is not a notification: 400, nothing stored', async () => {
    await refusedUnchanged(p.app, () => paddleWebhook(p.app, { hello: 'world' }), 400, 'WEBHOOK_PAYLOAD_INVALID');
  });
});
