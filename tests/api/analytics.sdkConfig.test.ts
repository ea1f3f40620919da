import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SdkSettingsAnswer } from '../../analytics/domain/sdk';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let app: AppDto;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'sdk-config-owner@example.com');
  app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Config app' });
});
afterAll(() => t.close());

const origin = { origin: 'https://customer.example' };
/** /o/sdk as the web SDK sends it: POST, form-encoded (or GET with the same query). */
function sdk(params: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
  const encoded = new URLSearchParams(params).toString();
  return method === 'GET'
    ? t.app.inject({ method: 'GET', url: `/o/sdk?${encoded}`, headers: origin })
    : t.app.inject({ method: 'POST', url: '/o/sdk', headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: encoded });
}
const settingsCall = (method: 'GET' | 'PUT', auth: { cookie?: string }, payload?: unknown) => dashboard(t.app, server.deploymentId)(method, `/apps/${app._id}/sdk-settings`, auth, payload);

describe('/o/sdk method=sc', () => {
  it("answers Countly's { v: 2, t, c } with no settings by default (the SDKs keep their defaults), on GET and POST, with the CORS header", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await sdk({ method: 'sc', app_key: app.key, device_id: 'web-1', sdk_name: 'javascript_native_web', sdk_version: '26.1.1', t: '1', timestamp: String(Date.now()) }, method);
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const body = res.json<{ v: number; t: number; c: Record<string, unknown> }>();
      expect(body).toEqual({ v: 2, t: new Date(app.updatedAt).getTime(), c: {} });
    }
  });

  it("answers the settings the app's admin set from the dashboard, and remote-config reads with an empty configuration", async () => {
    const put = await settingsCall('PUT', { cookie: server.owner.cookie }, { tracking: true, eqs: 5, sui: 30, eb: ['debug_event'], esb: { purchase: ['card'] } });
    expect(put.statusCode).toBe(200);
    const saved = put.json<{ payload: SdkSettingsAnswer }>().payload;
    expect(saved.settings).toEqual({ tracking: true, eqs: 5, sui: 30, eb: ['debug_event'], esb: { purchase: ['card'] } });
    expect(saved.defaults).toMatchObject({ tracking: true, rqs: 1000, eqs: 100, sui: 60 });
    const res = await sdk({ method: 'sc', app_key: app.key, device_id: 'web-1' });
    expect(res.json()).toEqual({ v: 2, t: new Date(saved.updatedAt).getTime(), c: saved.settings });
    expect((await settingsCall('GET', { cookie: server.owner.cookie })).json<{ payload: SdkSettingsAnswer }>().payload.settings).toEqual(saved.settings);
    const rc = await sdk({ method: 'rc', app_key: app.key, device_id: 'web-1' });
    expect([rc.statusCode, rc.json()]).toEqual([200, {}]);
  });

  it('refuses settings the SDKs do not know or of the wrong type, and callers who are not the app admin', async () => {
    const before = await tableCounts(t.app);
    for (const body of [{ unknown_key: true }, { eqs: -1 }, { tracking: 'yes' }, { eb: 'x' }]) {
      const res = await settingsCall('PUT', { cookie: server.owner.cookie }, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await settingsCall('PUT', {}, { eqs: 1 })).statusCode).toBe(401);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('answers a preflight from any origin', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/o/sdk', headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it.each([
    ['an unknown app key', { method: 'sc', app_key: 'f'.repeat(40), device_id: 'd' }, 'App does not exist'],
    ['no app key', { method: 'sc', device_id: 'd' }, 'Missing parameter "app_key" or "device_id"'],
    ['no device id', { method: 'sc', app_key: 'APP' }, 'Missing parameter "app_key" or "device_id"'],
    ['an empty device id', { method: 'sc', app_key: 'APP', device_id: '' }, 'Missing parameter "app_key" or "device_id"'],
    ['an overlong device id', { method: 'sc', app_key: 'APP', device_id: 'd'.repeat(201) }, 'Invalid parameter "device_id"'],
    ['an overlong app key', { method: 'sc', app_key: 'k'.repeat(201), device_id: 'd' }, 'Invalid parameter "app_key"'],
    ['an unknown method', { method: 'nope', app_key: 'APP', device_id: 'd' }, 'Invalid parameter "method"'],
    ['no method', { app_key: 'APP', device_id: 'd' }, 'Invalid parameter "method"'],
  ])('refuses %s with a clear 400 carrying the CORS header, writing nothing', async (_name, params, result) => {
    const before = await tableCounts(t.app);
    for (const method of ['GET', 'POST'] as const) {
      const res = await sdk(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === 'APP' ? app.key : v])), method);
      expect(res.statusCode).toBe(400);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json()).toEqual({ result });
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('refuses NUL and control characters, also where Fastify could not decode the query and the request guard saw none, writing nothing', async () => {
    const before = await tableCounts(t.app);
    // Decoded NUL is refused by the request guard before routing (the envelope, naming the field); '%ZZ' keeps the raw text from it.
    for (const [query, name] of [
      [`method=sc&app_key=${app.key}&device_id=a%00b`, 'device_id'],
      [`method=sc&app_key=${app.key}%00&device_id=d`, 'app_key'],
      [`method=sc&app_key=${app.key}&device_id=%00%ZZ`, 'device_id'],
      [`method=sc&app_key=${app.key}%00%ZZ&device_id=d`, 'app_key'],
      [`method=s%00c%ZZ&app_key=${app.key}&device_id=d`, 'method'],
      [`method=sc&app_key=${app.key}&device_id=x%01`, 'device_id'],
    ] as const) {
      for (const res of [await t.app.inject({ method: 'GET', url: `/o/sdk?${query}`, headers: origin }), await t.app.inject({ method: 'POST', url: '/o/sdk', headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: query })]) {
        expect(res.statusCode, query).toBe(400);
        expect(res.headers['access-control-allow-origin'], query).toBe('*');
        expect(res.body, query).toContain(name);
      }
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
