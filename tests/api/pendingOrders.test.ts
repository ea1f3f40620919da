import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { createScheduledJobs } from '../../server/jobs/scheduled';
import { PENDING_ORDER_CLEANUP_DAYS } from '../../src/domain/constants';
import { companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, settledIn, timeline } from '../support/servers';
import { paddleSettings, startFakePaddle } from '../support/paddle';
import { createTestApp, type TestApp } from '../support/testApp';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let start = 0;
let clock = 0;
let jobs: ReturnType<typeof createScheduledJobs>;

beforeAll(async () => {
  t = await createTestApp(FAST_SERVERS);
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'pending-owner@example.com');
  const { app } = t;
  jobs = createScheduledJobs({ services: app.schedules, config: app.config, providers: app.providers, payments: app.payments.gateway, health: app.serverHealth, mailing: { mailer: app.mailer, t: createI18n(app.config.PRODUCT_NAME).t, publicUrl: app.config.publicUrl }, log: app.log, now: () => new Date(clock) });
});
afterAll(() => t.close());

async function order(name: string, planCode?: string) {
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name, ...(planCode ? { planCode } : {}) }));
  expect(res.statusCode).toBe(201);
  return res.json<{ payload: { _id: string } }>().payload._id;
}

/** Runs the schedule at `days` after the orders were placed; mails go after the job returns. */
async function runAt(days: number) {
  clock = start + days * DAY;
  const n = await jobs['pending-orders']();
  await t.app.mailer.idle();
  return n;
}

const reminders = async () => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox where "to" = '${owner.email}' and subject like '%waiting for its payment%'`))[0]?.n;
const state = async (id: string) =>
  (await t.app.database.rows<{ status: string; sub: string; updated: string; subUpdated: string }>(`select d.status, s.status as sub, d.updated_at::text as updated, s.updated_at::text as "subUpdated" from deployments d join subscriptions s on s.deployment_id = d.id where d.id = '${id}'`))[0];
const expiries = async () => t.app.database.rows<{ target_id: string; actor_id: string | null }>(`select target_id, actor_id from audit_logs where action = 'deployment.expire' order by target_id`);

describe('orders never paid', () => {
  it('a reminder once after a day and once a day before the removal, then the removal after the stated days, audited; nothing else is touched', { timeout: 120_000 }, async () => {
    const unpaid = await order('Never Paid');
    const paid = await order('Paid Server');
    expect((await pay(t.app, owner.cookie, paid)).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, paid, 'running');
    const free = await order('Free Server', FREE);
    await settledIn(t.app, owner.cookie, free, 'running');
    // An unpaid order the customer is already deleting is left to that deletion.
    const deleting = await order('Being Deleted');
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${deleting}`)).statusCode).toBe(200);
    start = Date.now();
    const others = await Promise.all([paid, free, deleting].map(state));

    // Billing lists the unpaid order with when it was placed and when it goes; no other.
    const billing = (await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/billing`)).json<{ payload: { subscriptions: { deploymentId: string; pendingOrder: { orderedAt: string; removedOn: string } | null }[] } }>().payload;
    const listed = billing.subscriptions.filter((s) => s.pendingOrder).map((s) => s.deploymentId);
    expect(listed).toEqual([unpaid]);
    const pending = billing.subscriptions.find((s) => s.deploymentId === unpaid)?.pendingOrder;
    expect(Date.parse(pending?.removedOn ?? '') - Date.parse(pending?.orderedAt ?? '')).toBe(PENDING_ORDER_CLEANUP_DAYS * DAY);

    expect(await runAt(0.5)).toBe(0);
    expect(await reminders()).toBe(0);

    expect(await runAt(1.01)).toBe(1);
    expect(await reminders()).toBe(1);
    // Hours later the same day: no second mail.
    expect(await runAt(1.2)).toBe(0);
    expect(await runAt(3)).toBe(0);
    expect(await reminders()).toBe(1);

    expect(await runAt(PENDING_ORDER_CLEANUP_DAYS - 0.99)).toBe(1);
    expect(await runAt(PENDING_ORDER_CLEANUP_DAYS - 0.5)).toBe(0);
    expect(await reminders()).toBe(2);
    const [mail] = await t.app.database.rows<{ text: string }>(`select text from mail_outbox where subject like '%waiting for its payment%' order by created_at desc limit 1`);
    expect(mail?.text).toContain('Never Paid');
    expect(mail?.text).toContain(`/deployments/${unpaid}`);
    expect(mail?.text).toContain('removed tomorrow');
    expect((await state(unpaid))?.status).toBe('provisioned');
    expect(await expiries()).toHaveLength(0);

    expect(await runAt(PENDING_ORDER_CLEANUP_DAYS + MINUTE / DAY)).toBe(1);
    expect(await state(unpaid)).toMatchObject({ status: 'deleted', sub: 'canceled' });
    expect(await expiries()).toEqual([{ target_id: unpaid, actor_id: null }]);
    // Its payment can no longer be made, and its removal is on its timeline.
    const checkout = await pay(t.app, owner.cookie, unpaid);
    expect(checkout.statusCode).toBe(404);
    expect(checkout.json<{ code: string }>().code).toBe('DEPLOYMENT_NOT_FOUND');
    const { events } = await timeline(t.app, owner.cookie, unpaid);
    expect(events.some((e) => e.kind === 'status' && e.toStatus === 'deleted')).toBe(true);

    // Once: a later run removes nothing more, mails no more; the other servers are as they were.
    expect(await runAt(PENDING_ORDER_CLEANUP_DAYS + 2)).toBe(0);
    expect(await expiries()).toHaveLength(1);
    expect(await reminders()).toBe(2);
    expect(await Promise.all([paid, free, deleting].map(state))).toEqual(others);
  });
});

describe('an order never paid at Paddle', () => {
  it('has its open checkout transaction cancelled at Paddle once the order is removed, and only then', async () => {
    const paddle = await startFakePaddle();
    const p = await createTestApp({ ...FAST_SERVERS, ...paddleSettings(paddle.url) });
    try {
      const c = await loadCatalogue(p.app);
      const o = await companyOwner(p.app, 'pending-paddle@example.com');
      const res = await postOrder(p.app, o.cookie, orderBody(c, o, { name: 'Unpaid at Paddle' }));
      expect(res.statusCode).toBe(201);
      const id = res.json<{ payload: { _id: string } }>().payload._id;
      const [sub] = await p.app.database.rows<{ txn: string | null }>(`select checkout_transaction_id as txn from subscriptions where deployment_id = '${id}'`);
      expect(sub?.txn).toMatch(/^txn_/);
      let at = Date.now();
      const paddleJobs = createScheduledJobs({ services: p.app.schedules, config: p.app.config, providers: p.app.providers, payments: p.app.payments.gateway, health: p.app.serverHealth, mailing: { mailer: p.app.mailer, t: createI18n(p.app.config.PRODUCT_NAME).t, publicUrl: p.app.config.publicUrl }, log: p.app.log, now: () => new Date(at) });
      const cancels = () => paddle.calls.filter((call) => call.method === 'PATCH' && call.url === `/transactions/${sub?.txn}`);
      // A reminder leaves the checkout open: the customer may still pay.
      at += DAY + MINUTE;
      await paddleJobs['pending-orders']();
      expect(cancels()).toEqual([]);
      at += PENDING_ORDER_CLEANUP_DAYS * DAY;
      expect(await paddleJobs['pending-orders']()).toBe(1);
      expect(cancels()).toEqual([expect.objectContaining({ body: { status: 'canceled' } })]);
      await p.app.mailer.idle();
    } finally {
      await p.close();
      paddle.close();
    }
  });
});
