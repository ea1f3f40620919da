import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, eventRow } from '../support/analytics';
import { freePort } from '../support/net';
import { loadCatalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let url: string;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'web-owner@example.com');
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  url = `http://127.0.0.1:${port}`;
});
afterAll(() => t.close());

interface WebCountly {
  init(options: Record<string, unknown>): void;
  begin_session(): void;
  add_event(event: Record<string, unknown>): void;
  end_session(seconds?: number): void;
  halt?(): void;
}

describe('the official Countly web SDK in a page of another origin (jsdom)', () => {
  it('sends a session and events cross-origin (CORS) that land in the aggregates', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Web app' });
    const dom = new JSDOM('<!doctype html><html><head><title>Shop</title></head><body></body></html>', { url: 'https://customer.example/shop', runScripts: 'outside-only', pretendToBeVisual: true });
    dom.window.eval(readFileSync(createRequire(import.meta.url).resolve('countly-sdk-web'), 'utf8'));
    const Countly = (dom.window as unknown as { Countly: WebCountly }).Countly;
    Countly.init({ app_key: app.key, url, device_id: 'web-device-1', interval: 100, fail_timeout: 1, debug: false });
    Countly.begin_session();
    Countly.add_event({ key: 'add_to_cart', count: 1, sum: 12, segmentation: { item: 'lamp' } });
    Countly.add_event({ key: 'add_to_cart', count: 2, segmentation: { item: 'chair' } });

    let rows = await eventRow(t.app, app._id, 'add_to_cart');
    for (let i = 0; i < 200 && (rows[0]?.count ?? 0) < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await eventRow(t.app, app._id, 'add_to_cart');
    }
    // The SDK drops a request from its queue only once it could read a Success answer, which a
    // page of another origin can only do through the CORS headers.
    const queue = () => JSON.parse(dom.window.localStorage.getItem(`${app.key}/cly_queue`) ?? '[]') as unknown[];
    for (let i = 0; i < 100 && queue().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(queue()).toEqual([]);
    dom.window.close();
    expect(rows[0]).toMatchObject({ count: 3, sum: 12 });
    expect((await eventRow(t.app, app._id, 'add_to_cart', undefined, 'item', 'chair'))[0]?.count).toBe(2);
    const [sessions] = await t.app.database.rows<{ sessions: number }>(`select sessions from analytics_daily_sessions where app_id = '${app._id}'`);
    expect(sessions?.sessions).toBe(1);
  });
});
