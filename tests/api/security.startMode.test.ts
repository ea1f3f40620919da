import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie, tokenOf } from '../support/auth';
import { captureLog } from '../support/logCapture';
import { BASIC, companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, type Catalogue } from '../support/orders';
import { startSmtpSink } from '../support/smtpSink';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Which mode a start runs in, and what it does with a paid order: a start that carries production
 * settings is production even without NODE_ENV, and its paid orders are refused unless the
 * operator turned the test-card stand-in on. (server/startMode.test.ts has the whole table.)
 */

const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };
/** `npm start` with no NODE_ENV (an empty variable counts as unset), as scripts/start.mjs runs the server. */
const NPM_START = { NODE_ENV: '', STARTED_BY: 'npm-start' };
const SECRET_KEYS = `k1:${randomBytes(32).toString('base64')}`;

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

/** A company owner who verified their address; mails go to the SMTP sink, not the outbox. */
async function verifiedOwner(app: FastifyInstance, sink: Sink, email: string) {
  const signUp = await app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName: 'Ada', lastName: 'Lovelace', email, password: GOOD_PASSWORD } });
  expect(signUp.statusCode).toBe(201);
  const mail = await sink.waitFor(email, 'Verify');
  const cookie = sessionCookie(await app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password: GOOD_PASSWORD } }));
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '';
  expect((await app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { token: tokenOf(link) }, headers: { cookie } })).statusCode).toBe(200);
  const company = (await app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Acme' }, headers: { cookie } })).json<{ payload: { _id: string; projects: { _id: string }[] } }>().payload;
  return { cookie, companyId: company._id, projectId: company.projects[0]?._id ?? '' };
}

const paymentsConfig = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/api/v1/payments/config' })).json<{ payload: { mode: string } }>().payload;
const subRow = (id: string) => `select status, vendor, vendor_subscription_id, current_period_end from subscriptions where deployment_id = '${id}'`;

describe('npm start carrying production settings, without NODE_ENV', () => {
  let sink: Sink;
  let t: TestApp;
  let cat: Catalogue;
  let owner: Awaited<ReturnType<typeof verifiedOwner>>;
  const log = captureLog();
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ ...limits, ...NPM_START, PUBLIC_URL: 'https://beacon.example.com', SECRET_KEYS, SMTP_URL: sink.url }, { logger: { level: 'warn', stream: log.stream } });
    cat = await loadCatalogue(t.app);
    owner = await verifiedOwner(t.app, sink, 'deploy-owner@example.com');
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('is production, and its log says so and why', () => {
    expect(t.config).toMatchObject({ mode: 'production', payments: 'off' });
    expect(log.text()).toContain('mode production, payments off: NODE_ENV is unset but the start carries production settings: PUBLIC_URL is public https (beacon.example.com), SECRET_KEYS is set, SMTP_URL is set');
    expect(log.text()).toContain('paid orders are refused');
  });

  it('refuses a paid yearly order: nothing is created, no mail is sent', async () => {
    const before = await tableCounts(t.app);
    const mails = sink.mails.length;
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: BASIC, paymentCycle: 'year' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PAYMENTS_UNAVAILABLE', message: expect.stringContaining('Paid plans cannot be ordered right now') });
    expect(await tableCounts(t.app)).toEqual(before);
    expect(sink.mails.length).toBe(mails);
  });

  it('takes no test card for an order left awaiting its payment: it stays pending', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Left pending' }))).json().payload._id as string;
    // An order made while a stand-in was configured, still waiting for its payment.
    await t.app.database.rows(`update subscriptions set status = 'pending', vendor = 'paddle' where deployment_id = '${id}'`);
    const before = { counts: await tableCounts(t.app), sub: await t.app.database.rows(subRow(id)) };
    const mails = sink.mails.length;
    const res = await pay(t.app, owner.cookie, id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PAYMENTS_UNAVAILABLE' });
    expect({ counts: await tableCounts(t.app), sub: await t.app.database.rows(subRow(id)) }).toEqual(before);
    expect(sink.mails.length).toBe(mails);
  });

  it('tells the browser payments are off, so it offers no card form', async () => {
    expect(await paymentsConfig(t.app)).toEqual({ mode: 'off', environment: null, clientToken: null });
  });
});

describe('the same start with PAYMENTS_STAND_IN=true', () => {
  it('takes the test card, and warns at start that no money is taken', async () => {
    const sink = await startSmtpSink();
    const log = captureLog();
    const t = await createTestApp({ ...limits, ...NPM_START, PUBLIC_URL: 'https://beacon.example.com', SECRET_KEYS, SMTP_URL: sink.url, PAYMENTS_STAND_IN: 'true' }, { logger: { level: 'warn', stream: log.stream } });
    try {
      expect(t.config).toMatchObject({ mode: 'production', payments: 'stand-in' });
      expect(log.text()).toContain('mode production, payments stand-in');
      expect(log.text()).toContain('PAYMENTS_STAND_IN=true: test cards activate paid orders and no money is taken');
      expect(await paymentsConfig(t.app)).toMatchObject({ mode: 'stand-in' });
      const cat = await loadCatalogue(t.app);
      const owner = await verifiedOwner(t.app, sink, 'stand-in-owner@example.com');
      const order = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: BASIC, paymentCycle: 'year' }));
      expect(order.statusCode).toBe(201);
      const paid = await pay(t.app, owner.cookie, order.json().payload._id as string);
      expect(paid.statusCode).toBe(200);
      expect(paid.json().payload.subscription.status).toBe('active');
    } finally {
      await t.close();
      await sink.close();
    }
  });
});

describe('a bare npm start', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ ...limits, ...NPM_START }, { logger: { level: 'info', stream: log.stream } });
  });
  afterAll(() => t.close());

  it('is the demo: a newcomer orders a paid plan and pays it with 4242…', async () => {
    expect(t.config).toMatchObject({ mode: 'demo', payments: 'stand-in' });
    expect(log.text()).toContain('mode demo, payments stand-in: npm start with no NODE_ENV and no production setting');
    expect(await paymentsConfig(t.app)).toMatchObject({ mode: 'stand-in' });
    const cat = await loadCatalogue(t.app);
    const owner = await companyOwner(t.app, 'newcomer@example.com');
    const order = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: BASIC, paymentCycle: 'year' }));
    expect(order.statusCode).toBe(201);
    expect((await pay(t.app, owner.cookie, order.json().payload._id as string)).json().payload.subscription.status).toBe('active');
  });
});

describe('payments off outside production (PAYMENTS_STAND_IN=false)', () => {
  it('tells the browser so', async () => {
    const t = await createTestApp({ ...limits, PAYMENTS_STAND_IN: 'false' });
    try {
      expect(t.config.payments).toBe('off');
      expect(await paymentsConfig(t.app)).toEqual({ mode: 'off', environment: null, clientToken: null });
    } finally {
      await t.close();
    }
  });
});
