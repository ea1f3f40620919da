import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEWS_PER_DAY, type ViewTotals } from '../../analytics/domain/views';
import { analyticsServer, createAnalyticsApp, dashboard, eventRow, hit, RAW_EVENTS } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'internal-events-owner@example.com');
});
afterAll(() => t.close());

const newApp = (body: Record<string, unknown> = {}) => createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, body);
const ts = Date.UTC(2026, 10, 20, 12, 0, 0);
const period = '?from=2026-11-20&to=2026-11-20';
const call = (path: string) => dashboard(t.app, server.deploymentId)('GET', path, { cookie: server.owner.cookie });
const listedKeys = async (appId: string) => (await call(`/apps/${appId}/events${period}`)).json<{ payload: { key: string }[] }>().payload.map((e) => e.key);
const count = async (sql: string) => (await t.app.database.rows<{ n: number }>(sql))[0]?.n;

/** Countly's internal events as the SDKs send them (web, Android, iOS), with their usual segmentation. */
const INTERNAL = [
  { key: '[CLY]_view', segmentation: { name: 'home', visit: 1, view: 'https://customer.example/', segment: 'Web' } },
  { key: '[CLY]_session', segmentation: { name: 's' } },
  { key: '[CLY]_action', segmentation: { type: 'click', x: 10, y: 20, width: 1280, height: 720, view: 'https://customer.example/' } },
  { key: '[CLY]_orientation', segmentation: { mode: 'portrait' } },
  { key: '[CLY]_star_rating', segmentation: { rating: 4, platform: 'web', app_version: '1.0', widget_id: 'w1' } },
  { key: '[CLY]_nps', segmentation: { rating: 9, widget_id: 'w2', closed: 0 } },
  { key: '[CLY]_survey', segmentation: { widget_id: 'w3', answ: 'yes' } },
  { key: '[CLY]_push_action', segmentation: { b: 'button', i: 'message-id' } },
  { key: '[CLY]_push_sent', segmentation: { i: 'message-id' } },
  { key: '[CLY]_crash', segmentation: { crash: 'id' } },
];

describe("Countly's internal events", () => {
  it.each(INTERNAL)('$key is recorded (totals and the raw event) but is no custom event: not listed, no definition, no segment values, no drops', async (event) => {
    const app = await newApp({ limits: { eventKeys: 1, segmentsPerEvent: 1, valuesPerSegment: 1 } });
    const res = await hit(t.app, { app_key: app.key, device_id: 'd1', timestamp: String(ts), events: [{ key: 'custom', count: 1, timestamp: ts }, { ...event, count: 1, timestamp: ts }, { ...event, count: 2, timestamp: ts }] }, 'POST');
    expect([res.statusCode, res.json()]).toEqual([200, { result: 'Success' }]);
    expect(await listedKeys(app._id)).toEqual(['custom']);
    expect(await eventRow(t.app, app._id, event.key)).toEqual([{ day: '2026-11-20', count: 3, sum: 0, dur: 0 }]);
    expect(await count(`select count(*)::int as n from analytics_daily_events where app_id = '${app._id}' and event_key = '${event.key}' and segment <> ''`)).toBe(0);
    expect(await count(`select count(*)::int as n from analytics_events where app_id = '${app._id}' and key like '[CLY]%'`)).toBe(0);
    expect(await count(`select count(*)::int as n from analytics_segment_values where app_id = '${app._id}'`)).toBe(0);
    expect(await count(`select count(*)::int as n from analytics_drops where app_id = '${app._id}'`)).toBe(0);
    expect(await count(`select count(*)::int as n from ${RAW_EVENTS} where app_id = '${app._id}' and key = '${event.key}' and segmentation is not null`)).toBe(2);
    // 'custom' took the one key the app allows: a second custom key is dropped, the internal ones never count.
    await hit(t.app, { app_key: app.key, device_id: 'd1', timestamp: String(ts + 1), events: [{ key: 'another', timestamp: ts }, { ...event, timestamp: ts }] });
    expect(await listedKeys(app._id)).toEqual(['custom']);
    expect(await eventRow(t.app, app._id, event.key)).toEqual([{ day: '2026-11-20', count: 4, sum: 0, dur: 0 }]);
    expect(await t.app.database.rows(`select kind, count from analytics_drops where app_id = '${app._id}'`)).toEqual([{ kind: 'event_keys', count: 1 }]);
  });
});

describe('views', () => {
  const view = (name: string, extra: Record<string, unknown>) => ({ key: '[CLY]_view', count: 1, timestamp: ts, segmentation: { name, segment: 'Web', ...extra } });

  it('counts a view once per visit (visit=1) with the duration its closing event brings, listed with visits and average time', async () => {
    const app = await newApp();
    const send = (stamp: number, events: unknown[]) => hit(t.app, { app_key: app.key, device_id: 'v1', timestamp: String(stamp), events }, 'POST');
    await send(ts + 1, [view('/home', { visit: 1, view: 'https://customer.example/', start: 1 })]);
    await send(ts + 2, [{ ...view('/home', {}), dur: 12 }, view('/pricing', { visit: 1, view: 'https://customer.example/pricing' })]);
    await send(ts + 3, [{ ...view('/pricing', {}), dur: 5 }, view('/home', { visit: 1 })]);
    await send(ts + 4, [{ ...view('/home', {}), dur: 8 }]);
    // A retry of the same request (same payload and timestamp) counts nothing again.
    await send(ts + 4, [{ ...view('/home', {}), dur: 8 }]);

    const res = await call(`/apps/${app._id}/views${period}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ payload: ViewTotals[] }>().payload).toEqual([
      { view: '/home', visits: 2, duration: 20, averageDuration: 10 },
      { view: '/pricing', visits: 1, duration: 5, averageDuration: 5 },
    ]);
    expect(await listedKeys(app._id)).toEqual([]);
    // Outside the period: nothing.
    expect((await call(`/apps/${app._id}/views?from=2026-11-21&to=2026-11-22`)).json<{ payload: ViewTotals[] }>().payload).toEqual([]);
  });

  it(`records at most ${MAX_VIEWS_PER_DAY} distinct views per app and day, still counting the known ones`, async () => {
    const app = await newApp();
    const many = Array.from({ length: MAX_VIEWS_PER_DAY }, (_, i) => view(`/page-${i}`, { visit: 1 }));
    expect((await hit(t.app, { app_key: app.key, device_id: 'v1', timestamp: String(ts + 1), events: many }, 'POST')).statusCode).toBe(200);
    await hit(t.app, { app_key: app.key, device_id: 'v1', timestamp: String(ts + 2), events: [view('/one-too-many', { visit: 1 }), view('/page-0', { visit: 1 })] }, 'POST');
    expect(await count(`select count(*)::int as n from analytics_daily_views where app_id = '${app._id}'`)).toBe(MAX_VIEWS_PER_DAY);
    expect(await count(`select visits::int as n from analytics_daily_views where app_id = '${app._id}' and view = '/page-0'`)).toBe(2);
  });

  it('is read by the app users only, and cleared with the app data', async () => {
    const app = await newApp();
    await hit(t.app, { app_key: app.key, device_id: 'v1', timestamp: String(ts), events: [view('/a', { visit: 1 })] });
    const stranger = await dashboard(t.app, server.deploymentId)('GET', `/apps/${app._id}/views${period}`, {});
    expect(stranger.statusCode).toBe(401);
    expect((await dashboard(t.app, server.deploymentId)('POST', `/apps/${app._id}/clear`, { cookie: server.owner.cookie }, { period: 'all' })).statusCode).toBe(200);
    expect(await count(`select count(*)::int as n from analytics_daily_views where app_id = '${app._id}'`)).toBe(0);
  });
});
