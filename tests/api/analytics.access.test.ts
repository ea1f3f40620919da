import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard, hit } from '../support/analytics';
import { loadCatalogue, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let cat: Catalogue;
let a: Awaited<ReturnType<typeof analyticsServer>>;
let b: Awaited<ReturnType<typeof analyticsServer>>;
let appA: AppDto;
let appA2: AppDto;
let appB: AppDto;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  a = await analyticsServer(t.app, cat, 'tenant-a@example.com');
  b = await analyticsServer(t.app, cat, 'tenant-b@example.com');
  appA = await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'A one' });
  appA2 = await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'A two' });
  appB = await createAnalyticsApp(t.app, b.deploymentId, b.owner.cookie, { name: 'B secret' });
  for (const app of [appA, appA2, appB]) await hit(t.app, { app_key: app.key, device_id: `${app.name}-device`, begin_session: '1', events: [{ key: 'purchase', segmentation: { plan: 'pro' } }] });
});
afterAll(() => t.close());

async function refused(res: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
}

describe('tokens', () => {
  const callA = () => dashboard(t.app, a.deploymentId);
  const create = async (body: Record<string, unknown>) => callA()('POST', '/tokens', { cookie: a.owner.cookie }, { purpose: 'Reporting', neverExpires: true, allApps: true, ...body });

  it('refuses invalid or overlong patterns, missing apps or expiry, changing nothing', async () => {
    const before = await tableCounts(t.app);
    await refused(await create({ endpoints: [{ path: '/apps\u0001', params: {} }] }), 400, 'ANALYTICS_TOKEN_PATTERN_INVALID');
    await refused(await create({ endpoints: [{ path: 'x'.repeat(201), params: {} }] }), 400, 'ANALYTICS_TOKEN_PATTERN_INVALID');
    await refused(await create({ endpoints: [{ path: '/apps', params: { from: '' } }] }), 400, 'ANALYTICS_TOKEN_PATTERN_INVALID');
    await refused(await create({ allApps: false, apps: [] }), 400, 'ANALYTICS_TOKEN_NEEDS_APPS');
    await refused(await create({ neverExpires: false }), 400, 'ANALYTICS_TOKEN_NEEDS_EXPIRY');
    await refused(await create({ allApps: false, apps: [appB._id] }), 404, 'ANALYTICS_APP_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('is shown once, stored hashed, and enforces its endpoint, parameter and app patterns on every request', async () => {
    const res = await create({ allApps: false, apps: [appA._id], endpoints: [{ path: '/apps/*/events', params: { from: '2026-*' } }], expiry: { amount: 2, unit: 'hours' }, neverExpires: false });
    expect(res.statusCode).toBe(201);
    const { token, record } = res.json().payload;
    expect(record).toMatchObject({ purpose: 'Reporting', apps: [appA._id], multiUse: true, status: 'active' });
    expect(Date.parse(record.expiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    const [row] = await t.app.database.rows<{ token_hash: string }>(`select token_hash from analytics_tokens where id = '${record._id}'`);
    expect(row?.token_hash).not.toBe(token);
    expect(JSON.stringify((await callA()('GET', '/tokens', { cookie: a.owner.cookie })).json().payload)).not.toContain(token);

    const withToken = { headers: { 'countly-token': token } };
    expect((await callA()('GET', `/apps/${appA._id}/events?from=2026-01-01&to=${today}`, withToken)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${a.deploymentId}/apps/${appA._id}/events?from=2026-01-01&to=${today}&auth_token=${token}` })).statusCode).toBe(200);
    await refused(await callA()('GET', `/apps/${appA._id}/events?from=2025-01-01&to=${today}`, withToken), 403, 'ANALYTICS_TOKEN_REFUSED');
    await refused(await callA()('GET', '/apps', withToken), 403, 'ANALYTICS_TOKEN_REFUSED');
    await refused(await callA()('GET', `/apps/${appA._id}/events/purchase/series?from=2026-01-01&to=${today}`, withToken), 403, 'ANALYTICS_TOKEN_REFUSED');
    await refused(await callA()('GET', `/apps/${appA2._id}/events?from=2026-01-01&to=${today}`, withToken), 404, 'ANALYTICS_APP_NOT_FOUND');
    await refused(await dashboard(t.app, b.deploymentId)('GET', `/apps/${appB._id}/events?from=2026-01-01&to=${today}`, withToken), 401, 'ANALYTICS_TOKEN_INVALID');
    // A token cannot mint another one.
    await refused(await callA()('POST', '/tokens', { headers: { 'countly-token': (await create({})).json().payload.token } }, { purpose: 'x', allApps: true, neverExpires: true }), 403, 'ANALYTICS_TOKEN_REFUSED');
  });

  it('spends a single-use token in the request that uses it, not in a refused one', async () => {
    const { token } = (await create({ multiUse: false })).json().payload;
    const withToken = { headers: { 'countly-token': token } };
    await refused(await callA()('GET', `/apps/${appB._id}/limits`, withToken), 404, 'ANALYTICS_APP_NOT_FOUND');
    expect((await callA()('GET', `/apps/${appA._id}/limits`, withToken)).statusCode).toBe(200);
    await refused(await callA()('GET', `/apps/${appA._id}/limits`, withToken), 401, 'ANALYTICS_TOKEN_INVALID');
  });

  it('expires, shows as expired, and is deleted by its owner only', async () => {
    const { token, record } = (await create({})).json().payload;
    await t.app.database.rows(`update analytics_tokens set expires_at = now() - interval '1 minute' where id = '${record._id}'`);
    await refused(await callA()('GET', '/apps', { headers: { 'countly-token': token } }), 401, 'ANALYTICS_TOKEN_INVALID');
    expect((await callA()('GET', '/tokens', { cookie: a.owner.cookie })).json().payload.find((x: { _id: string }) => x._id === record._id).status).toBe('expired');
    await refused(await dashboard(t.app, b.deploymentId)('DELETE', `/tokens/${record._id}`, { cookie: b.owner.cookie }), 404, 'ANALYTICS_TOKEN_DELETE_FAILED');
    expect((await callA()('DELETE', `/tokens/${record._id}`, { cookie: a.owner.cookie })).statusCode).toBe(200);
  });
});

describe('one tenant never sees another', () => {
  /** Valid bodies, so each refusal comes from the authorisation check and not from validation. */
  const bodies: Record<string, unknown> = {
    'POST /apps': { name: 'Intruder' },
    'PUT /apps/{appId}': { name: 'Renamed' },
    'POST /apps/{appId}/clear': { period: 'all' },
    'POST /members': { userId: '00000000-0000-4000-8000-000000000000', globalAdmin: true },
    'PUT /members/{memberId}': { globalAdmin: true },
    'PUT /me/password': { newPassword: 'Abcdefg1!', confirmation: 'Abcdefg1!' },
    'PUT /me/api-key': { apiKey: 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6' },
    'POST /me/api-key/regenerate': {},
    'PUT /apps/{appId}/events/{key}': { name: 'x' },
    'POST /apps/{appId}/groups': { name: 'g', eventKeys: ['purchase', 'purchase2'] },
    'PUT /apps/{appId}/groups/{groupId}': { name: 'g', eventKeys: ['purchase', 'purchase2'] },
    'PUT /apps/{appId}/overview': { tiles: [{ eventKey: 'purchase', property: 'count' }] },
    'POST /apps/{appId}/app-users/{deviceId}/export': {},
    'POST /apps/{appId}/app-users/{deviceId}/purge': { confirm: true },
    'POST /tokens': { purpose: 'x', allApps: true, neverExpires: true },
    'POST /open': {},
    'POST /reports': { title: 'x', metrics: ['analytics'], apps: ['00000000-0000-4000-8000-000000000000'], emails: ['x@example.com'], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC' },
    'PUT /reports/{reportId}': { title: 'x', metrics: ['analytics'], apps: ['00000000-0000-4000-8000-000000000000'], emails: ['x@example.com'], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC' },
    'PUT /reports/{reportId}/status': { enabled: false },
  };
  const query = `from=2020-01-01&to=${today}&window=30days&segment=plan`;

  it('walks every dashboard route: as A on B ids, and on A with B object ids; each is refused and nothing changes', async () => {
    await hit(t.app, { app_key: appB.key, device_id: 'b-device', events: [{ key: 'purchase2' }] });
    const callB = dashboard(t.app, b.deploymentId);
    const group = (await callB('POST', `/apps/${appB._id}/groups`, { cookie: b.owner.cookie }, { name: 'B group', eventKeys: ['purchase', 'purchase2'] })).json().payload;
    const token = (await callB('POST', '/tokens', { cookie: b.owner.cookie }, { purpose: 'B', allApps: true, neverExpires: true })).json().payload.record;
    const job = (await callB('POST', `/apps/${appB._id}/app-users/b-device/export`, { cookie: b.owner.cookie }, {})).json().payload;
    const report = (await callB('POST', '/reports', { cookie: b.owner.cookie }, { title: 'B report', metrics: ['analytics'], apps: [appB._id], emails: ['tenant-b@example.com'], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC' })).json().payload;
    const ids: Record<string, string> = { appId: appB._id, memberId: b.session.member._id, tokenId: token._id, jobId: job._id, groupId: group._id, reportId: report._id, key: 'purchase', deviceId: 'b-device' };

    const spec = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const routes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/v1/analytics/{deploymentId}'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE', path: path.replace('/api/v1/analytics/{deploymentId}', '') })));
    expect(routes.length).toBeGreaterThanOrEqual(35);

    const before = await tableCounts(t.app);
    for (const { method, path } of routes) {
      const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? 'missing'));
      const body = method === 'GET' || method === 'DELETE' ? undefined : (bodies[`${method} ${path}`] ?? {});
      for (const [deployment, label] of [[b.deploymentId, 'B ids on B'], [a.deploymentId, 'B ids on A']] as const) {
        if (label === 'B ids on A' && !/\{(appId|memberId|tokenId|jobId|groupId|reportId)\}/.test(path)) continue;
        const res = await dashboard(t.app, deployment)(method, `${filled}${method === 'GET' ? `?${query}` : ''}`, { cookie: a.owner.cookie }, body);
        expect([403, 404], `${label}: ${method} ${path} answered ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        expect(res.body).not.toContain('B secret');
        expect(res.body).not.toContain(appB.key);
      }
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('keeps an app key pointing at its own app only', async () => {
    const rows = await t.app.database.rows<{ app_id: string }>(`select distinct app_id from analytics_app_users where device_id = 'B secret-device'`);
    expect(rows).toEqual([{ app_id: appB._id }]);
  });
});

describe('MAU', () => {
  it('is the number of distinct devices that sent data in each month, per deployment', async () => {
    const server = await analyticsServer(t.app, cat, 'mau-owner@example.com');
    const one = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'MAU one' });
    const two = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'MAU two' });
    const oct = String(Date.UTC(2026, 9, 10, 12));
    const nov = String(Date.UTC(2026, 10, 10, 12));
    for (const [app, device, ts] of [[one, 'd1', oct], [one, 'd1', oct], [one, 'd2', oct], [one, 'd1', nov], [two, 'd9', nov], [two, 'd9', String(Number(nov) + 1)]] as const) {
      await hit(t.app, { app_key: app.key, device_id: device, timestamp: ts, events: [{ key: 'x' }] });
    }
    expect(await t.app.analytics.mauHistory(server.deploymentId)).toEqual([{ month: '2026-10', devices: 2 }, { month: '2026-11', devices: 2 }]);
    expect(await t.app.analytics.mauHistory('00000000-0000-4000-8000-000000000000')).toEqual([]);
    const october = await t.app.analytics.mauOfMonth([server.deploymentId, a.deploymentId], '2026-10');
    expect(Object.fromEntries(october)).toEqual({ [server.deploymentId]: 2, [a.deploymentId]: 0 });
  });
});
