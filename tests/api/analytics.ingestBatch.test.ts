import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, eventRow, hit, RAW_EVENTS } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * Requests arriving together share a batch (one statement): what each stores must be what it
 * would store alone. Retries in the same batch count once; a refused request in a batch changes
 * nothing and the others are stored.
 */
let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'batch-owner@example.com');
}, 120_000);
afterAll(() => t.close());

const ts = Date.UTC(2026, 10, 20, 12, 0, 0);
const events = [{ key: 'purchase', count: 2, sum: 5, segmentation: { plan: 'pro' }, timestamp: ts }];

describe('/i requests written in batches', () => {
  it('stores concurrent requests of many devices once each, with retries in the same batch counted once', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
    // Known keys first, so the concurrent requests all go to the batch writer.
    expect((await hit(t.app, { app_key: app.key, device_id: 'warm', timestamp: String(ts), events }, 'POST')).statusCode).toBe(200);
    const requests = Array.from({ length: 30 }, (_, n) => ({ app_key: app.key, device_id: `device-${n}`, timestamp: String(ts + n + 1), begin_session: '1', metrics: { _os: n % 2 ? 'iOS' : 'Android' }, events }));
    // Each of the first five is sent three times at once: an SDK retrying before its answer came.
    const sent = [...requests, ...requests.slice(0, 5), ...requests.slice(0, 5)];
    const answers = await Promise.all(sent.map((params) => hit(t.app, params, 'POST')));
    expect(answers.map((a) => a.statusCode)).toEqual(sent.map(() => 200));

    expect(await eventRow(t.app, app._id, 'purchase')).toEqual([{ day: '2026-11-20', count: 62, sum: 155, dur: 0 }]);
    expect(await eventRow(t.app, app._id, 'purchase', undefined, 'plan', 'pro')).toEqual([{ day: '2026-11-20', count: 62, sum: 155, dur: 0 }]);
    const [sessions] = await t.app.database.rows<{ sessions: number; new_users: number }>(`select sessions, new_users from analytics_daily_sessions where app_id = '${app._id}'`);
    expect(sessions).toEqual({ sessions: 30, new_users: 30 });
    const users = await t.app.database.rows<{ device_id: string; sessions: number; metrics: Record<string, string> }>(`select device_id, sessions, metrics from analytics_app_users where app_id = '${app._id}' and device_id like 'device-%' order by device_id`);
    expect(users).toHaveLength(30);
    expect(users.every((u) => u.sessions === 1 && u.metrics._os === (Number(u.device_id.split('-')[1]) % 2 ? 'iOS' : 'Android'))).toBe(true);
    const [raw] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from ${RAW_EVENTS} where app_id = '${app._id}'`);
    expect(raw?.n).toBe(31);
  });

  it('answers a refused request in a batch alone, storing nothing for it and everything for the others', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
    expect((await hit(t.app, { app_key: app.key, device_id: 'warm', timestamp: String(ts), events }, 'POST')).statusCode).toBe(200);
    const good = Array.from({ length: 6 }, (_, n) => ({ app_key: app.key, device_id: `ok-${n}`, timestamp: String(ts + n + 1), events }));
    const answers = await Promise.all([...good.map((params) => hit(t.app, params, 'POST')), hit(t.app, { app_key: app.key, device_id: 'bad\u0001device', timestamp: String(ts), events }, 'POST')]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 400]);
    expect(answers[6]?.json()).toEqual({ result: 'Invalid parameter "device_id"' });
    expect(await eventRow(t.app, app._id, 'purchase')).toEqual([{ day: '2026-11-20', count: 14, sum: 35, dur: 0 }]);
    const [users] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_app_users where app_id = '${app._id}'`);
    expect(users?.n).toBe(7);
  });

  it('stores what each request brings when a batch mixes sessions, views and plain events, and when it holds one kind', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
    expect((await hit(t.app, { app_key: app.key, device_id: 'warm', timestamp: String(ts), events }, 'POST')).statusCode).toBe(200);
    const view = (name: string) => [{ key: '[CLY]_view', count: 1, dur: 3, segmentation: { name, visit: 1 }, timestamp: ts }];
    /** A request of one kind: plain events, a session (begun, with its duration) or a view. */
    const kinds = {
      plain: (n: number) => ({ app_key: app.key, device_id: `plain-${n}`, timestamp: String(ts + 100 + n), events }),
      session: (n: number) => ({ app_key: app.key, device_id: `session-${n}`, timestamp: String(ts + 200 + n), begin_session: '1', session_duration: '30', events }),
      view: (n: number) => ({ app_key: app.key, device_id: `view-${n}`, timestamp: String(ts + 300 + n), events: view('/home') }),
    };
    // Sent together (batches of every kind mixed), then one of each alone (a batch of one kind).
    const mixed = [0, 1, 2, 3].flatMap((n) => [kinds.plain(n), kinds.session(n), kinds.view(n)]);
    expect((await Promise.all(mixed.map((params) => hit(t.app, params, 'POST')))).map((a) => a.statusCode)).toEqual(mixed.map(() => 200));
    for (const params of [kinds.plain(4), kinds.view(4), kinds.session(4), kinds.plain(5)]) expect((await hit(t.app, params, 'POST')).statusCode).toBe(200);

    // warm, 6 plain and 5 session requests bring two purchases each.
    expect(await eventRow(t.app, app._id, 'purchase')).toEqual([{ day: '2026-11-20', count: 24, sum: 60, dur: 0 }]);
    const [sessions] = await t.app.database.rows<{ sessions: number; new_users: number; duration: number }>(`select sessions, new_users, duration::int as duration from analytics_daily_sessions where app_id = '${app._id}'`);
    expect(sessions).toEqual({ sessions: 5, new_users: 5, duration: 150 });
    const views = await t.app.database.rows<{ view: string; visits: number; duration: number }>(`select view, visits::int as visits, duration::int as duration from analytics_daily_views where app_id = '${app._id}'`);
    expect(views).toEqual([{ view: '/home', visits: 5, duration: 15 }]);
    const [users] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_app_users where app_id = '${app._id}'`);
    expect(users?.n).toBe(17);
  });
});
