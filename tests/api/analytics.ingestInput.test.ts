import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { analyticsServer, createAnalyticsApp, dashboard, eventRow, RAW_EVENTS } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Ingestion input the fuzz walk and the security review found: numbers past float8's range, control
// characters in ids and lone surrogates in JSON parameters each ended as a 500. An SDK never sees a
// 500: a bad id refuses the request (400, Countly's { result }), a bad number or text is dropped.
let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INGEST_RATE_LIMIT_PER_MINUTE: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'input-owner@example.com');
});
afterAll(() => t.close());

const newApp = () => createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { timezone: 'UTC' });
const call = (method: 'GET' | 'POST', path: string, payload?: unknown) => dashboard(t.app, server.deploymentId)(method, path, { cookie: server.owner.cookie }, payload);
/** A form-encoded POST whose values are sent as written (JSON text included), like the SDKs do. */
const form = (url: string, params: Record<string, string>) => t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
const today = new Date().toISOString().slice(0, 10);
const period = `from=${today.slice(0, 4)}-01-01&to=${today}`;

async function readsAnswer(app: AppDto, key: string): Promise<void> {
  for (const path of [`/apps/${app._id}/events?${period}`, `/apps/${app._id}/top-events?window=30days`, `/apps/${app._id}/top-events?window=24hours`, `/apps/${app._id}/events/${key}/series?${period}&segment=s`, `/apps/${app._id}/overview?${period}`]) {
    const res = await call('GET', path);
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  }
}

describe('numbers past their bounds (count: 1e308)', () => {
  it('counts an event whose count, sum or duration is huge, infinite or no number as if they were not sent', async () => {
    const app = await newApp();
    // JSON text as an SDK could send it: 1e999 parses as Infinity.
    const events = `[{"key":"big","count":1e308,"sum":1e308,"dur":1e308,"segmentation":{"s":"v"}},{"key":"big","count":1e999,"sum":-1e999,"dur":1e308},{"key":"big","count":"1e308","sum":"Infinity","dur":"NaN"},{"key":"big","count":"-Infinity","sum":"1e16","dur":"-1e308"},{"key":"big","count":2,"sum":2.5,"dur":3}]`;
    for (const [i, method] of (['GET', 'POST'] as const).entries()) {
      const params = { app_key: app.key, device_id: 'n1', timestamp: String(Date.now() + i), events };
      const res = method === 'GET' ? await t.app.inject({ method: 'GET', url: `/i?${new URLSearchParams(params).toString()}` }) : await form('/i', params);
      expect([res.statusCode, res.json()]).toEqual([200, { result: 'Success' }]);
    }
    const json = await t.app.inject({ method: 'POST', url: '/i', headers: { 'content-type': 'application/json' }, payload: `{"app_key":"${app.key}","device_id":"n1","timestamp":"${Date.now() + 2}","events":[{"key":"big","count":1e308,"sum":1e308,"dur":1e999}]}` });
    expect([json.statusCode, json.json()]).toEqual([200, { result: 'Success' }]);
    // Per request: four events counted once each, the last one twice, sum and dur of that one only.
    expect(await eventRow(t.app, app._id, 'big', today)).toEqual([{ day: today, count: 13, sum: 5, dur: 6 }]);
    expect(await eventRow(t.app, app._id, 'big', today, 's', 'v')).toEqual([{ day: today, count: 2, sum: 0, dur: 0 }]);
    const [raw] = await t.app.database.rows<{ n: number; biggest: number }>(`select count(*)::int as n, max(greatest(abs(count), abs(coalesce(sum, 0)), abs(coalesce(dur, 0)))) as biggest from ${RAW_EVENTS} where app_id = '${app._id}'`);
    expect(raw).toEqual({ n: 11, biggest: 3 });
    await readsAnswer(app, 'big');
  });

  it('reads totals of rows stored before the bound without failing: events, top events, series, overview, report preview and send', async () => {
    const app = await newApp();
    await t.app.inject({ method: 'GET', url: `/i?app_key=${app.key}&device_id=old&events=${encodeURIComponent('[{"key":"big","segmentation":{"s":"v"}}]')}` });
    // What an earlier version could store: float8 values whose sum is past float8's range.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await t.app.database.rows(`update analytics_daily_events set count = 1.5e308, sum = -1.5e308, dur = 1.5e308 where app_id = '${app._id}'`);
    await t.app.database.rows(`insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur) select app_id, event_key, '${yesterday}', segment, value, count, sum, dur from analytics_daily_events where app_id = '${app._id}'`);
    await readsAnswer(app, 'big');
    const top = (await call('GET', `/apps/${app._id}/top-events?window=30days`)).json<{ payload: { events: { key: string; count: number; sum: number }[] } }>().payload;
    expect(top.events).toEqual([expect.objectContaining({ key: 'big', count: 1e300, sum: -1e300, share: 1 })]);
    const report = await call('POST', '/reports', { title: 'Big', metrics: ['analytics', 'events'], apps: [app._id], emails: [server.owner.email], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC' });
    expect(report.statusCode, report.body).toBe(201);
    const id = report.json<{ payload: { _id: string } }>().payload._id;
    const preview = await call('GET', `/reports/${id}/preview`);
    expect(preview.statusCode, preview.body).toBe(200);
    const sent = await call('POST', `/reports/${id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
  });
});

describe('control characters in ids (a NUL in device_id)', () => {
  it('skips an inner request of a form-encoded /i/bulk whose device_id, app_key or timestamp has one, applying the others', async () => {
    const app = await newApp();
    const before = await tableCounts(t.app);
    const bad = [
      { device_id: 'a\u0000b', events: [{ key: 'bulk' }] },
      { device_id: '\ud800', events: [{ key: 'bulk' }] },
      { device_id: 'tab\tbed', begin_session: 1 },
      { app_key: `${app.key}\u0000`, device_id: 'c', events: [{ key: 'bulk' }] },
      { device_id: 'd', timestamp: '1\u0000', events: [{ key: 'bulk' }] },
    ];
    const res = await form('/i/bulk', { app_key: app.key, requests: JSON.stringify(bad) });
    expect([res.statusCode, res.json()]).toEqual([200, { result: 'Success' }]);
    expect(await tableCounts(t.app)).toEqual(before);

    const mixed = await form('/i/bulk', { app_key: app.key, requests: JSON.stringify([...bad, { device_id: 'good', events: [{ key: 'bulk', count: 2 }] }]) });
    expect([mixed.statusCode, mixed.json()]).toEqual([200, { result: 'Success' }]);
    expect((await eventRow(t.app, app._id, 'bulk'))[0]?.count).toBe(2);
    expect(await t.app.database.rows(`select device_id from analytics_app_users where app_id = '${app._id}'`)).toEqual([{ device_id: 'good' }]);
  });

  it('refuses /i with 400 naming the parameter, also when Fastify could not decode the query the handler decodes', async () => {
    const app = await newApp();
    const before = await tableCounts(t.app);
    // '%ZZ' and '%E0' make Fastify's decoder keep the raw text, so the request guard saw no NUL.
    for (const [query, name] of [
      [`app_key=${app.key}&device_id=%00%ZZ`, 'device_id'],
      [`app_key=${app.key}&device_id=%E0%00`, 'device_id'],
      [`app_key=${app.key}&device_id=x%01`, 'device_id'],
      [`app_key=${app.key}%00%ZZ&device_id=x`, 'app_key'],
      [`app_key=${app.key}&device_id=x&timestamp=1%00%ZZ`, 'timestamp'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/i?${query}&events=${encodeURIComponent('[{"key":"q"}]')}` });
      expect([res.statusCode, res.json()], query).toEqual([400, { result: `Invalid parameter "${name}"` }]);
    }
    const posted = await form('/i', { app_key: app.key, device_id: 'x\u001f', events: '[{"key":"q"}]' });
    expect([posted.statusCode, posted.json()]).toEqual([400, { result: 'Invalid parameter "device_id"' }]);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('lone surrogates and control characters inside JSON parameters', () => {
  it('drops them from event keys, segments, metrics and user details, and records the rest', async () => {
    const app = await newApp();
    // JSON text with escapes: the request guard sees plain ASCII, the parsed values hold the bad text.
    const params = {
      app_key: app.key,
      device_id: 'sur',
      begin_session: '1',
      events: '[{"key":"k\\ud800ey","segmentation":{"s\\udc00eg":"v\\ud800al","n":"\\u0000x"}},{"key":"\\ud800"}]',
      metrics: '{"_os":"And\\udbffroid","\\ud800":"x"}',
      user_details: '{"name":"A\\u0000da\\ud800","custom":{"t\\udfffier":"gold\\u0007"}}',
    };
    for (const res of [await form('/i', params), await t.app.inject({ method: 'GET', url: `/i?${new URLSearchParams({ ...params, timestamp: String(Date.now() + 1) }).toString()}` })]) {
      expect([res.statusCode, res.json()]).toEqual([200, { result: 'Success' }]);
    }
    const bulk = await form('/i/bulk', { app_key: app.key, requests: `[{"device_id":"sur","timestamp":${Date.now() + 2},"events":[{"key":"k\\udbffey","segmentation":{"seg":"v\\udfffal"}}]}]` });
    expect([bulk.statusCode, bulk.json()]).toEqual([200, { result: 'Success' }]);
    expect((await eventRow(t.app, app._id, 'key', today))[0]?.count).toBe(3);
    expect((await eventRow(t.app, app._id, 'key', today, 'seg', 'val'))[0]?.count).toBe(3);
    expect((await eventRow(t.app, app._id, 'key', today, 'n', 'x'))[0]?.count).toBe(2);
    const [user] = await t.app.database.rows<{ metrics: unknown; details: unknown }>(`select metrics, details from analytics_app_users where app_id = '${app._id}'`);
    expect(user).toEqual({ metrics: { _os: 'Android' }, details: { name: 'Ada', custom: { tier: 'gold' } } });
    await readsAnswer(app, 'key');
  });
});
