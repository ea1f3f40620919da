import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, eventRow, hit } from '../support/analytics';
import { loadCatalogue, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let cat: Catalogue;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  server = await analyticsServer(t.app, cat, 'ingest-owner@example.com');
});
afterAll(() => t.close());

const newApp = (body: Record<string, unknown> = {}) => createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, body);
const sessionsOf = async (appId: string) => t.app.database.rows<{ day: string; sessions: number; new_users: number; duration: number }>(`select day, sessions, new_users, duration from analytics_daily_sessions where app_id = '${appId}' order by day`);

describe('/i', () => {
  it('records sessions, events with segmentation, metrics and user details, and answers Success', async () => {
    const app = await newApp();
    const ts = Date.UTC(2026, 10, 20, 12, 0, 0);
    const res = await hit(t.app, { app_key: app.key, device_id: 'd1', timestamp: String(ts), begin_session: '1', metrics: { _os: 'Android' }, user_details: { name: 'Ada', custom: { tier: 'gold' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: 'Success' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const events = [
      { key: 'purchase', count: 2, sum: 9.5, dur: 3, segmentation: { plan: 'pro', country: 'DE' }, timestamp: ts },
      { key: 'purchase', segmentation: { plan: 'free' }, timestamp: ts },
    ];
    expect((await hit(t.app, { app_key: app.key, device_id: 'd1', timestamp: String(ts + 1), events, session_duration: '30', end_session: '1' }, 'POST')).json()).toEqual({ result: 'Success' });
    expect(await eventRow(t.app, app._id, 'purchase')).toEqual([{ day: '2026-11-20', count: 3, sum: 9.5, dur: 3 }]);
    expect(await eventRow(t.app, app._id, 'purchase', undefined, 'plan', 'pro')).toEqual([{ day: '2026-11-20', count: 2, sum: 9.5, dur: 3 }]);
    expect(await eventRow(t.app, app._id, 'purchase', undefined, 'plan', 'free')).toEqual([{ day: '2026-11-20', count: 1, sum: 0, dur: 0 }]);
    expect(await sessionsOf(app._id)).toEqual([{ day: '2026-11-20', sessions: 1, new_users: 1, duration: 30 }]);
    const [user] = await t.app.database.rows<{ metrics: unknown; details: unknown; sessions: number }>(`select metrics, details, sessions from analytics_app_users where app_id = '${app._id}'`);
    expect(user).toEqual({ metrics: { _os: 'Android' }, details: { name: 'Ada', custom: { tier: 'gold' } }, sessions: 1 });
  });

  it('reads events given as JSON bodies, not as strings', async () => {
    const app = await newApp();
    const res = await t.app.inject({ method: 'POST', url: '/i', payload: { app_key: app.key, device_id: 'j1', events: [{ key: 'opened', count: 4 }] } });
    expect(res.json()).toEqual({ result: 'Success' });
    expect((await eventRow(t.app, app._id, 'opened'))[0]?.count).toBe(4);
  });

  it('counts a second session of a known device without a new user', async () => {
    const app = await newApp();
    await hit(t.app, { app_key: app.key, device_id: 'x', begin_session: '1', timestamp: String(Date.UTC(2026, 10, 1, 10)) });
    await hit(t.app, { app_key: app.key, device_id: 'x', begin_session: '1', timestamp: String(Date.UTC(2026, 10, 1, 11)) });
    await hit(t.app, { app_key: app.key, device_id: 'y', begin_session: '1', timestamp: String(Date.UTC(2026, 10, 1, 12)) });
    expect(await sessionsOf(app._id)).toEqual([{ day: '2026-11-01', sessions: 3, new_users: 2, duration: 0 }]);
  });

  it('refuses a missing app_key or device_id and an unknown app with 400, changing nothing', async () => {
    const app = await newApp();
    const before = await tableCounts(t.app);
    const missing = await hit(t.app, { app_key: app.key, events: [{ key: 'a' }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ result: 'Missing parameter "app_key" or "device_id"' });
    expect((await hit(t.app, { device_id: 'd', events: [{ key: 'a' }] })).statusCode).toBe(400);
    const unknown = await hit(t.app, { app_key: 'no-such-key', device_id: 'd', events: [{ key: 'a' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ result: 'App does not exist' });
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('answers a CORS preflight', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/i', headers: { origin: 'https://customer.example', 'access-control-request-method': 'POST' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it('buckets by day in the app time zone', async () => {
    const tokyo = await newApp({ timezone: 'Asia/Tokyo' });
    const la = await newApp({ timezone: 'America/Los_Angeles' });
    // 2026-11-20 20:00 UTC is the 21st in Tokyo and still the 20th in Los Angeles.
    const ts = String(Date.UTC(2026, 10, 20, 20, 0, 0));
    for (const app of [tokyo, la]) await hit(t.app, { app_key: app.key, device_id: 'tz', timestamp: ts, begin_session: '1', events: [{ key: 'tick' }] });
    expect((await eventRow(t.app, tokyo._id, 'tick'))[0]?.day).toBe('2026-11-21');
    expect((await eventRow(t.app, la._id, 'tick'))[0]?.day).toBe('2026-11-20');
    expect((await sessionsOf(tokyo._id))[0]?.day).toBe('2026-11-21');
    // Seconds (older SDKs) are read as seconds.
    await hit(t.app, { app_key: tokyo.key, device_id: 'tz', timestamp: String(Date.UTC(2026, 0, 5, 0, 0) / 1000), events: [{ key: 'old' }] });
    expect((await eventRow(t.app, tokyo._id, 'old'))[0]?.day).toBe('2026-01-05');
  });

  it('sanitises event keys and skips events without a usable key', async () => {
    const app = await newApp();
    await hit(t.app, { app_key: app.key, device_id: 's', events: [{ key: '$set.name', segmentation: { 'a.b': 'x', nested: { no: 1 } } }, { key: '   ' }, { count: 3 }] });
    const keys = await t.app.database.rows<{ key: string }>(`select key from analytics_events where app_id = '${app._id}'`);
    expect(keys).toEqual([{ key: 'set:name' }]);
    expect((await eventRow(t.app, app._id, 'set:name', undefined, 'a:b', 'x'))[0]?.count).toBe(1);
    expect(await t.app.database.rows(`select * from analytics_daily_events where app_id = '${app._id}' and segment = 'nested'`)).toEqual([]);
  });
});

describe('duplicates', () => {
  it('counts a retried request once, rr and checksum aside, and a new timestamp again', async () => {
    const app = await newApp();
    const params = { app_key: app.key, device_id: 'r1', timestamp: '1763640000000', begin_session: '1', events: [{ key: 'buy', count: 1 }] };
    await hit(t.app, { ...params, rr: '3' });
    const retry = await hit(t.app, { ...params, rr: '2' });
    expect(retry.json()).toEqual({ result: 'Success' });
    expect((await eventRow(t.app, app._id, 'buy'))[0]?.count).toBe(1);
    expect((await sessionsOf(app._id))[0]?.sessions).toBe(1);
    await hit(t.app, { ...params, timestamp: '1763640000001' });
    expect((await eventRow(t.app, app._id, 'buy'))[0]?.count).toBe(2);
  });
});

describe('checksum', () => {
  const sha = (alg: 'sha1' | 'sha256', text: string) => createHash(alg).update(text).digest('hex');

  it('accepts sha1 and sha256 over the payload plus salt, refuses a wrong or missing one changing nothing', async () => {
    const app = await newApp({ checksumSalt: 's3cret' });
    const query = new URLSearchParams({ app_key: app.key, device_id: 'c1', events: JSON.stringify([{ key: 'signed' }]), timestamp: '1763640000000' }).toString();
    expect((await t.app.inject({ method: 'GET', url: `/i?${query}&checksum=${sha('sha1', query + 's3cret').toUpperCase()}` })).json()).toEqual({ result: 'Success' });
    const body = new URLSearchParams({ app_key: app.key, device_id: 'c1', events: JSON.stringify([{ key: 'signed' }]), timestamp: '1763640000001' }).toString();
    const posted = await t.app.inject({ method: 'POST', url: '/i', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `${body}&checksum256=${sha('sha256', body + 's3cret')}` });
    expect(posted.json()).toEqual({ result: 'Success' });
    expect((await eventRow(t.app, app._id, 'signed'))[0]?.count).toBe(2);

    const before = await tableCounts(t.app);
    const wrong = await t.app.inject({ method: 'GET', url: `/i?${query}&checksum256=${sha('sha256', query + 'other')}` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ result: 'Request does not match checksum' });
    expect((await t.app.inject({ method: 'GET', url: `/i?${query.replace('1763640000000', '1763640000009')}` })).statusCode).toBe(400);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('limits', () => {
  it('drops event keys, segments and values past the app limits and counts the drops', async () => {
    const app = await newApp({ limits: { eventKeys: 2, segmentsPerEvent: 1, valuesPerSegment: 2 } });
    await hit(t.app, { app_key: app.key, device_id: 'l', events: [{ key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'c' }] });
    const keys = await t.app.database.rows<{ key: string }>(`select key from analytics_events where app_id = '${app._id}' order by key`);
    expect(keys.map((k) => k.key)).toEqual(['a', 'b']);
    // The SDKs' own events are recorded without taking a custom event's place.
    await hit(t.app, { app_key: app.key, device_id: 'l', events: [{ key: '[CLY]_view', segmentation: { name: 'home' } }] });
    expect((await eventRow(t.app, app._id, '[CLY]_view'))[0]?.count).toBe(1);
    await hit(t.app, { app_key: app.key, device_id: 'l', events: [{ key: 'a', segmentation: { s1: 'v1', s2: 'x' } }, { key: 'a', segmentation: { s1: 'v2' } }, { key: 'a', segmentation: { s1: 'v3' } }] });
    expect((await eventRow(t.app, app._id, 'a'))[0]?.count).toBe(4);
    const values = await t.app.database.rows<{ segment: string; value: string }>(`select segment, value from analytics_segment_values where app_id = '${app._id}' and event_key = 'a' order by value`);
    expect(values).toEqual([{ segment: 's1', value: 'v1' }, { segment: 's1', value: 'v2' }]);
    const drops = await t.app.database.rows<{ kind: string; count: number }>(`select kind, count from analytics_drops where app_id = '${app._id}' order by kind`);
    expect(drops).toEqual([{ kind: 'event_keys', count: 2 }, { kind: 'segment_values', count: 1 }, { kind: 'segments', count: 1 }]);
    // Known values keep being counted once the limit is reached.
    await hit(t.app, { app_key: app.key, device_id: 'l', events: [{ key: 'a', segmentation: { s1: 'v1' } }] });
    expect((await eventRow(t.app, app._id, 'a', undefined, 's1', 'v1'))[0]?.count).toBe(2);
  });

  it('applies the SPEC defaults of 500 event keys when the app has no override', async () => {
    const app = await newApp();
    const events = Array.from({ length: 501 }, (_, i) => ({ key: `k${i}` }));
    await t.app.inject({ method: 'POST', url: '/i', payload: { app_key: app.key, device_id: 'many', events } });
    const [row] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_events where app_id = '${app._id}'`);
    expect(row?.n).toBe(500);
  });
});

describe('/i/bulk', () => {
  it('applies each request of a bulk call, with the top-level app_key', async () => {
    const app = await newApp();
    const requests = [
      { device_id: 'b1', begin_session: 1, timestamp: 1763640000000 },
      { device_id: 'b2', begin_session: 1, timestamp: 1763640000001, events: [{ key: 'bulked', count: 5 }] },
    ];
    const res = await t.app.inject({ method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ app_key: app.key, requests: JSON.stringify(requests) }).toString() });
    expect(res.json()).toEqual({ result: 'Success' });
    expect((await eventRow(t.app, app._id, 'bulked'))[0]?.count).toBe(5);
    expect((await sessionsOf(app._id)).reduce((n, d) => n + d.sessions, 0)).toBe(2);
  });
});

describe('abuse', () => {
  it('limits SDK requests per address and minute, answering 429 past the limit', async () => {
    const limited = await createTestApp({ INGEST_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await limited.app.inject({ method: 'GET', url: `/i?app_key=none&device_id=d${i}` })).statusCode);
      expect(answers).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});
