import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, dashboard, eventRow, hit } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INGEST_RATE_LIMIT_PER_MINUTE: '100000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'concurrency-owner@example.com');
});
afterAll(() => t.close());

const newApp = (body: Record<string, unknown> = {}) => createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, body);
const call = () => dashboard(t.app, server.deploymentId);
const customKeys = async (appId: string) => (await t.app.database.rows<{ key: string }>(`select key from analytics_events where app_id = '${appId}' and key not like '[CLY]%' order by key`)).map((r) => r.key);
const dropsOf = async (appId: string, kind: string) => (await t.app.database.rows<{ n: number }>(`select coalesce(sum(count), 0)::int as n from analytics_drops where app_id = '${appId}' and kind = '${kind}'`))[0]?.n;

describe('limits under concurrent requests', () => {
  it('never lets concurrent requests with new event keys pass the unique-key limit, and counts every drop', async () => {
    const app = await newApp({ limits: { eventKeys: 6 } });
    await hit(t.app, { app_key: app.key, device_id: 'seed', events: [{ key: 'known_1' }, { key: 'known_2' }, { key: 'known_3' }] });
    // 24 requests at once, each with two new keys and one known key: room for 3 new keys only.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => hit(t.app, { app_key: app.key, device_id: `c${i}`, timestamp: String(1_763_000_000_000 + i), events: [{ key: `new_${i}_a` }, { key: `new_${i}_b` }, { key: 'known_1' }] }, i % 2 ? 'POST' : 'GET')),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const keys = await customKeys(app._id);
    expect(keys).toHaveLength(6);
    const accepted = keys.filter((k) => k.startsWith('new_'));
    expect(accepted).toHaveLength(3);
    expect(await dropsOf(app._id, 'event_keys')).toBe(48 - 3);
    const recorded = await t.app.database.rows<{ n: number }>(`select coalesce(sum(count), 0)::int as n from analytics_daily_events where app_id = '${app._id}' and segment = '' and event_key like 'new_%'`);
    expect(recorded[0]?.n).toBe(3);
    expect((await eventRow(t.app, app._id, 'known_1')).reduce((n, r) => n + r.count, 0)).toBe(25);
  });

  it('never lets concurrent requests pass the values-per-segment limit', async () => {
    const app = await newApp({ limits: { valuesPerSegment: 4 } });
    await Promise.all(Array.from({ length: 16 }, (_, i) => hit(t.app, { app_key: app.key, device_id: `v${i}`, timestamp: String(1_763_000_000_000 + i), events: [{ key: 'buy', segmentation: { plan: `plan_${i}` } }] })));
    const values = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_segment_values where app_id = '${app._id}' and segment = 'plan'`);
    expect(values[0]?.n).toBe(4);
    expect(await dropsOf(app._id, 'segment_values')).toBe(12);
  });
});

describe('what ingestion keeps about an app', () => {
  it('sees a change of the app, of an event or the app’s deletion at the next request', async () => {
    const app = await newApp({ timezone: 'UTC' });
    const ts = String(Date.UTC(2026, 10, 20, 23, 30));
    await hit(t.app, { app_key: app.key, device_id: 'k', timestamp: ts, events: [{ key: 'tap', segmentation: { color: 'red', size: 'xl' } }] });
    // Time zone: the next event lands on the Tokyo day.
    expect((await call()('PUT', `/apps/${app._id}`, { cookie: server.owner.cookie }, { timezone: 'Asia/Tokyo' })).statusCode).toBe(200);
    await hit(t.app, { app_key: app.key, device_id: 'k', timestamp: String(Number(ts) + 1), events: [{ key: 'tap', segmentation: { color: 'red', size: 'xl' } }] });
    expect((await eventRow(t.app, app._id, 'tap')).map((r) => [r.day, r.count])).toEqual([['2026-11-20', 1], ['2026-11-21', 1]]);
    // An omitted segment is not recorded from the next request on.
    expect((await call()('PUT', `/apps/${app._id}/events/tap`, { cookie: server.owner.cookie }, { omittedSegments: ['size'], confirmPurge: true })).statusCode).toBe(200);
    await hit(t.app, { app_key: app.key, device_id: 'k', timestamp: String(Number(ts) + 2), events: [{ key: 'tap', segmentation: { color: 'red', size: 'xl' } }] });
    expect(await eventRow(t.app, app._id, 'tap', undefined, 'size', 'xl')).toEqual([]);
    expect((await eventRow(t.app, app._id, 'tap', undefined, 'color', 'red')).reduce((n, r) => n + r.count, 0)).toBe(3);
    // A checksum salt is asked for at once.
    expect((await call()('PUT', `/apps/${app._id}`, { cookie: server.owner.cookie }, { checksumSalt: 'pepper' })).statusCode).toBe(200);
    expect((await hit(t.app, { app_key: app.key, device_id: 'k', events: [{ key: 'tap' }] })).statusCode).toBe(400);
    // A deleted app's key names no app any more.
    expect((await call()('DELETE', `/apps/${app._id}`, { cookie: server.owner.cookie })).statusCode).toBe(200);
    expect((await hit(t.app, { app_key: app.key, device_id: 'k', events: [{ key: 'tap' }] })).json()).toEqual({ result: 'App does not exist' });
  });
});
