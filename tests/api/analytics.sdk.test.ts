import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Countly from 'countly-sdk-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, eventRow } from '../support/analytics';
import { freePort } from '../support/net';
import { loadCatalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let url: string;
let server: Awaited<ReturnType<typeof analyticsServer>>;
const storage = mkdtempSync(join(tmpdir(), 'countly-sdk-'));

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  server = await analyticsServer(t.app, await loadCatalogue(t.app), 'sdk-owner@example.com');
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  // The SDK stores each answer's outcome right after reading it: let the last one settle before resetting it.
  await new Promise((r) => setTimeout(r, 300));
  Countly.halt(true);
  await t.close();
  rmSync(storage, { recursive: true, force: true });
});

/** Polls until the SDK's queued requests have reached the server (it sends on its own timer). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

describe('the official Countly Node SDK', () => {
  it('sends a session, events with segmentation and user details that land in the aggregates, signed with the app salt', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Node SDK app', checksumSalt: 'pepper' });
    Countly.init({ app_key: app.key, url, device_id: 'sdk-device-1', storage_path: join(storage, 'single'), storage_type: 'memory', interval: 50, fail_timeout: 1, salt: 'pepper', metrics: { _os: 'Linux', _app_version: '1.2.3' } });
    Countly.begin_session(true);
    Countly.add_event({ key: 'checkout', count: 2, sum: 19.98, dur: 4, segmentation: { plan: 'pro', country: 'FR' } });
    Countly.add_event({ key: 'checkout', count: 1, segmentation: { plan: 'free' } });
    Countly.user_details({ name: 'Grace', email: 'grace@example.com' });
    Countly.end_session(42);

    const totals = await until(() => eventRow(t.app, app._id, 'checkout'), (rows) => (rows[0]?.count ?? 0) >= 3);
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({ count: 3, sum: 19.98, dur: 4 });
    expect((await eventRow(t.app, app._id, 'checkout', undefined, 'plan', 'pro'))[0]).toMatchObject({ count: 2 });
    const sessions = await until(
      () => t.app.database.rows<{ sessions: number; new_users: number; duration: number }>(`select sessions, new_users, duration from analytics_daily_sessions where app_id = '${app._id}'`),
      (rows) => (rows[0]?.duration ?? 0) >= 42,
    );
    expect(sessions).toEqual([{ sessions: 1, new_users: 1, duration: 42 }]);
    const users = await until(
      () => t.app.database.rows<{ device_id: string; details: Record<string, unknown>; metrics: Record<string, string> }>(`select device_id, details, metrics from analytics_app_users where app_id = '${app._id}'`),
      (rows) => rows[0]?.details.name === 'Grace',
    );
    expect(users[0]).toMatchObject({ device_id: 'sdk-device-1', details: { name: 'Grace', email: 'grace@example.com' }, metrics: { _os: 'Linux', _app_version: '1.2.3' } });
  });

  it('sends many users at once through CountlyBulk and /i/bulk', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Bulk app' });
    const bulk = new Countly.Bulk({ app_key: app.key, url, storage_path: join(storage, 'bulk'), storage_type: 'memory', interval: 50, fail_timeout: 1 });
    for (const id of ['u1', 'u2', 'u3']) bulk.add_user({ device_id: id }).begin_session({ _os: 'iOS' }).add_event({ key: 'level_up', count: 1, segmentation: { level: '2' } });
    // The bulk sender calls back once its queue looks empty, which it also does while its last call is
    // still in flight; so wait for the stored totals, as the single-user test does.
    await new Promise<void>((resolve) => bulk.start(resolve));
    const rows = await until(() => eventRow(t.app, app._id, 'level_up'), (found) => (found[0]?.count ?? 0) >= 3);
    bulk.stop();
    expect(rows[0]?.count).toBe(3);
    const [devices] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_app_users where app_id = '${app._id}'`);
    expect(devices?.n).toBe(3);
  });
});
