import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let app: AppDto;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INGEST_RATE_LIMIT_PER_MINUTE: '40' });
  const server = await analyticsServer(t.app, await loadCatalogue(t.app), 'sdk-cors-owner@example.com');
  app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'CORS app' });
});
afterAll(() => t.close());

const origin = { origin: 'https://customer.example' };
/**
 * What the current SDKs call by default or on a feature's first use (web 26.1 read from its
 * source: /i, /o/sdk, /o/sdk/content, /o/feedback/..., /o/surveys/...; the Node SDK's /i/bulk),
 * and Countly read paths Beacon does not answer.
 */
const SDK_PATHS = ['/i', '/i/bulk', '/o/sdk', '/o/sdk/content', '/o/feedback/widget', '/o/feedback/multiple-widgets-by-id', '/o/surveys/nps/widget', '/o/surveys/survey/widget', '/o/surveys/rating/widget', '/o/apps/mine', '/i/unknown'];

describe('CORS on every SDK path', () => {
  it.each(SDK_PATHS)('%s answers a preflight from any origin and every GET and POST with the CORS header, 404s included', async (path) => {
    const pre = await t.app.inject({ method: 'OPTIONS', url: path, headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    expect(pre.headers['access-control-allow-headers']).toContain('content-type');
    for (const res of [
      await t.app.inject({ method: 'GET', url: `${path}?app_key=${app.key}`, headers: origin }),
      await t.app.inject({ method: 'POST', url: path, headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'app_key=nope' }),
    ]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
  });

  it('carries it on refusals before the route runs: a NUL the request guard refuses, a bad URL, an unsupported body type, writing nothing', async () => {
    const before = await tableCounts(t.app);
    const answers = [
      await t.app.inject({ method: 'GET', url: `/i?app_key=${app.key}&device_id=a%00b`, headers: origin }),
      await t.app.inject({ method: 'GET', url: '/o/sdk/%E0%A4%A', headers: origin }),
      await t.app.inject({ method: 'POST', url: '/i', headers: { ...origin, 'content-type': 'application/xml' }, payload: '<x/>' }),
      await t.app.inject({ method: 'POST', url: '/o/sdk', headers: { ...origin, 'content-type': 'application/xml' }, payload: '<x/>' }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('carries it on a rate-limited answer', async () => {
    let limited = null;
    for (let i = 0; i < 60 && !limited; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/o/sdk', headers: { ...origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: `method=sc&app_key=${app.key}&device_id=d` });
      if (res.statusCode === 429) limited = res;
    }
    expect(limited?.headers['access-control-allow-origin']).toBe('*');
  });

  it('leaves the product API without it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: origin });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
