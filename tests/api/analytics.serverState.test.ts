import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard, hit, setServerState } from '../support/analytics';
import { BASIC, changeBody, companyOwner, loadCatalogue, orderBody, postOrder, STARTER, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Analytics only for a live, paid-for server. Ingestion and the whole dashboard for a
 * running server whose subscription is free, paid or past due within its grace; reading the data
 * kept for a paused or overdue one; nothing for an unpaid order or a deleted server.
 */
let t: TestApp;
let cat: Catalogue;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let app: AppDto;
let apiKey: string;
let token: string;
let reportId: string;
const DAY = 86_400_000;
const GRACE_DAYS = 14;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', PAST_DUE_GRACE_DAYS: String(GRACE_DAYS) });
  cat = await loadCatalogue(t.app);
  server = await analyticsServer(t.app, cat, 'state-owner@example.com');
  app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Stateful' });
  expect((await hit(t.app, { app_key: app.key, device_id: 'kept', begin_session: '1', events: [{ key: 'kept', count: 4 }] })).json()).toEqual({ result: 'Success' });
  apiKey = (await call('POST', '/me/api-key/regenerate', { cookie: server.owner.cookie }, {})).json().payload.apiKey;
  token = (await call('POST', '/tokens', { cookie: server.owner.cookie }, { purpose: 'Script', neverExpires: true, allApps: true })).json().payload.token;
  reportId = (await call('POST', '/reports', { cookie: server.owner.cookie }, { title: 'Daily', metrics: ['analytics'], apps: [app._id], emails: ['state-owner@example.com'], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC' })).json().payload._id;
});
afterAll(() => t.close());

const call = (...args: Parameters<ReturnType<typeof dashboard>>) => dashboard(t.app, server.deploymentId)(...args);
const owner = () => ({ cookie: server.owner.cookie });
const today = () => new Date().toISOString().slice(0, 10);
const open = (deploymentId: string, cookie: string) => t.app.inject({ method: 'POST', url: `/api/v1/analytics/${deploymentId}/open`, headers: { cookie }, payload: {} });
const bulk = () =>
  t.app.inject({ method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ app_key: app.key, requests: JSON.stringify([{ device_id: 'bulk', begin_session: '1' }]) }).toString() });

async function refused(res: { statusCode: number; json(): { code: string; message: string } }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
  expect(res.json().message).toBeTruthy();
}

/** Ingestion's refusal: Countly's `{ result }` with an error status and the CORS header of every answer of /i. */
function ingestionRefused(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ result: 'Server does not accept data: it is not running or not paid for' });
  expect(res.headers['access-control-allow-origin']).toBe('*');
}

/** Every write the dashboard offers on this server, each refused with `code`. */
async function writesRefused(code: string, status = 409) {
  await refused(await call('POST', '/apps', owner(), { name: 'New' }), status, code);
  await refused(await call('PUT', `/apps/${app._id}`, owner(), { name: 'Renamed' }), status, code);
  await refused(await call('POST', `/apps/${app._id}/clear`, owner(), { period: 'all' }), status, code);
  await refused(await call('POST', '/tokens', owner(), { purpose: 'More', neverExpires: true, allApps: true }), status, code);
  await refused(await call('POST', '/me/api-key/regenerate', owner(), {}), status, code);
  await refused(await call('PUT', `/apps/${app._id}/events/kept`, owner(), { name: 'Kept' }), status, code);
}

describe('what each server state allows', () => {
  it('an unpaid order (subscription pending) opens nothing and gets no dashboard', async () => {
    const buyer = await companyOwner(t.app, 'state-buyer@example.com');
    const order = await postOrder(t.app, buyer.cookie, orderBody(cat, buyer, { planCode: STARTER, name: 'Unpaid' }));
    const unpaid = order.json<{ payload: { _id: string; status: string; subscription: { status: string } } }>().payload;
    expect([unpaid.status, unpaid.subscription.status]).toEqual(['provisioned', 'pending']);
    const before = await tableCounts(t.app);
    await refused(await open(unpaid._id, buyer.cookie), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    // Not even once it is marked running by mistake: the subscription still awaits its payment.
    await setServerState(t.app, unpaid._id, 'running');
    await refused(await open(unpaid._id, buyer.cookie), 409, 'ANALYTICS_READ_ONLY');
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await t.app.database.rows(`select id from analytics_tenants where deployment_id = '${unpaid._id}'`)).toEqual([]);
  });

  it('a running server whose order awaits payment keeps its data readable and takes no new data', async () => {
    await setServerState(t.app, server.deploymentId, 'running', { status: 'pending' });
    const before = await tableCounts(t.app);
    ingestionRefused(await hit(t.app, { app_key: app.key, device_id: 'new', begin_session: '1' }));
    ingestionRefused(await bulk());
    await writesRefused('ANALYTICS_READ_ONLY');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('GET', `/apps/${app._id}/events?from=2020-01-01&to=${today()}`, owner())).statusCode).toBe(200);
  });

  it('a server paused for non-payment shows the data kept, through session, key and token, and changes nothing', async () => {
    await setServerState(t.app, server.deploymentId, 'paused', { status: 'past_due', pastDueSince: new Date(Date.now() - (GRACE_DAYS + 1) * DAY) });
    const before = await tableCounts(t.app);
    ingestionRefused(await hit(t.app, { app_key: app.key, device_id: 'new', begin_session: '1', events: [{ key: 'late' }] }));
    ingestionRefused(await hit(t.app, { app_key: app.key, device_id: 'new', begin_session: '1' }, 'POST'));
    ingestionRefused(await bulk());
    await writesRefused('ANALYTICS_READ_ONLY');
    const opened = await open(server.deploymentId, server.owner.cookie);
    expect(opened.statusCode).toBe(200);
    // The screens hide every action of a read-only dashboard.
    expect(opened.json().payload.access).toBe('read');
    const events = await call('GET', `/apps/${app._id}/events?from=2020-01-01&to=${today()}`, owner());
    expect(events.statusCode).toBe(200);
    expect(events.json().payload.find((e: { key: string }) => e.key === 'kept')?.totals.count).toBe(4);
    expect((await call('GET', '/apps', { headers: { 'countly-token': token } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${server.deploymentId}/me?api_key=${apiKey}` })).statusCode).toBe(200);
    // Only the open's last-login stamp moved.
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('a paused server sends no scheduled report: the run is recorded as failed and the report moves on', async () => {
    await setServerState(t.app, server.deploymentId, 'paused', { status: 'past_due', pastDueSince: new Date(Date.now() - (GRACE_DAYS + 1) * DAY) });
    const reportMails = async () => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox where subject like '%analytics report%'`))[0]?.n;
    const mails = await reportMails();
    await t.app.analytics.runDueReports(new Date(Date.now() + 2 * DAY));
    expect(await reportMails()).toBe(mails);
    const jobs = await t.app.database.rows<{ status: string; params: { error?: string } }>(`select status, params from analytics_jobs where kind = 'report' and params->>'reportId' = '${reportId}'`);
    expect(jobs).toEqual([{ status: 'failed', params: expect.objectContaining({ error: 'server not running or not paid for' }) }]);
  });

  it('a running server past due within its grace keeps everything; beyond it, reading only', async () => {
    await setServerState(t.app, server.deploymentId, 'running', { status: 'past_due', pastDueSince: new Date(Date.now() - (GRACE_DAYS - 1) * DAY) });
    expect((await hit(t.app, { app_key: app.key, device_id: 'grace', begin_session: '1' })).json()).toEqual({ result: 'Success' });
    expect((await call('PUT', `/apps/${app._id}`, owner(), { name: 'Still mine' })).statusCode).toBe(200);
    await setServerState(t.app, server.deploymentId, 'running', { status: 'past_due', pastDueSince: new Date(Date.now() - (GRACE_DAYS + 1) * DAY) });
    const before = await tableCounts(t.app);
    ingestionRefused(await hit(t.app, { app_key: app.key, device_id: 'overdue', begin_session: '1' }));
    await writesRefused('ANALYTICS_READ_ONLY');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('a deleted server opens nothing, answers nothing and takes nothing, whatever the credential', async () => {
    await setServerState(t.app, server.deploymentId, 'deleted', { status: 'active' });
    const stranger = await companyOwner(t.app, 'state-stranger@example.com');
    const before = await tableCounts(t.app);
    ingestionRefused(await hit(t.app, { app_key: app.key, device_id: 'gone', begin_session: '1' }));
    ingestionRefused(await bulk());
    await refused(await open(server.deploymentId, server.owner.cookie), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    await refused(await call('GET', '/apps', owner()), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    await refused(await call('GET', `/apps/${app._id}/events?from=2020-01-01&to=${today()}`, owner()), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    await refused(await call('GET', '/apps', { headers: { 'countly-token': token } }), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    await refused(await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${server.deploymentId}/me?api_key=${apiKey}` }), 409, 'ANALYTICS_SERVER_UNAVAILABLE');
    await writesRefused('ANALYTICS_SERVER_UNAVAILABLE');
    // A stranger learns nothing about the state: refused as a stranger to the company, or to the dashboard.
    await refused(await open(server.deploymentId, stranger.cookie), 403, 'NOT_A_MEMBER');
    await refused(await call('GET', '/apps', { cookie: stranger.cookie }), 403, 'ANALYTICS_NOT_MEMBER');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('a server live and paid again takes data at once (the ingestion cache sees the change)', async () => {
    await setServerState(t.app, server.deploymentId, 'running', { status: 'active' });
    expect((await hit(t.app, { app_key: app.key, device_id: 'back', begin_session: '1' })).json()).toEqual({ result: 'Success' });
    expect((await bulk()).json()).toEqual({ result: 'Success' });
    expect((await call('PUT', `/apps/${app._id}`, owner(), { name: 'Back' })).statusCode).toBe(200);
    expect((await open(server.deploymentId, server.owner.cookie)).json().payload.access).toBe('full');
  });

  it('a free server waiting for the payment of its change to a paid plan keeps taking data on its free plan', async () => {
    const change = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/deployments/${server.deploymentId}`,
      headers: { cookie: server.owner.cookie },
      payload: changeBody(cat, server.owner, { planCode: BASIC, planConfig: { region: cat.region('us-central1'), size: cat.size('mau_5_000'), features: [cat.feature('domain.default'), cat.feature('retention.12m'), cat.feature('backup.daily')] } }),
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().payload).toMatchObject({ paymentRequired: true, subscription: { status: 'pending' } });
    expect((await hit(t.app, { app_key: app.key, device_id: 'while-paying', begin_session: '1' })).json()).toEqual({ result: 'Success' });
    expect((await call('PUT', `/apps/${app._id}`, owner(), { name: 'Still free' })).statusCode).toBe(200);
    expect((await open(server.deploymentId, server.owner.cookie)).json().payload.access).toBe('full');
  });
});
