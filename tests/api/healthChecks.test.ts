import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { healthKeyFor } from '../../analytics/server/services/healthKey';
import type { HealthCheckDto } from '../../src/domain/deployments/schemas';
import { createServerHealth } from '../../server/services/serverHealth';
import { createAnalyticsApp, hit, setServerState } from '../support/analytics';
import { companyOwner, count, FREE, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, populated, settledIn, timeline, until } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

// The app listens on a real port: the health check's SDK probe is an HTTP request to it, as the
// worker's would be to the API. A restart drains for a while, long enough to be seen.
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let server: { _id: string };
let app: AppDto;
let tenantId: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, RESTART_DRAIN_MS: '1500', HEALTH_PROBE_TIMEOUT_MS: '3000' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'health-owner@example.com');
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Probed Server' }));
  server = await settledIn(t.app, owner.cookie, res.json().payload._id as string, 'running');
  const opened = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${server._id}/open`, headers: { cookie: owner.cookie }, payload: {} });
  expect(opened.statusCode).toBe(200);
  app = await createAnalyticsApp(t.app, server._id, owner.cookie);
  tenantId = (await t.app.database.rows<{ id: string }>(`select id from analytics_tenants where deployment_id = '${server._id}'`))[0]?.id ?? '';
});
afterAll(() => t.close());

const act = (action: string) => api(t.app, owner.cookie, 'POST', `/deployments/${server._id}/${action}`, {});
const checks = async (cookie = owner.cookie) => (await api(t.app, cookie, 'GET', `/deployments/${server._id}/health-checks`)).json<{ payload: HealthCheckDto[] }>().payload;
const sdk = (key: string) => fetch(`${base}/o/sdk`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ app_key: key, device_id: 'd', method: 'sc' }).toString() });
/** Runs the probes and records them as the scheduled checks do. */
async function scheduledCheck(health = t.app.serverHealth) {
  const run = await health.probe(server._id, { machine: { healthy: true, detail: 'ok' } });
  return t.app.database.db.transaction((tx) => health.record(tx, server._id, run, { event: 'on_change' }));
}

describe('a health check', () => {
  it("probes the server's real path and records each probe's latency", async () => {
    expect((await act('health-check')).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, server._id, 'running');
    const [check] = await checks();
    expect(check).toMatchObject({ deploymentId: server._id, healthy: true, reason: null, taskId: expect.any(String) });
    expect(check?.probes.map((p) => [p.name, p.ok, p.detail])).toEqual([
      ['sdk', true, null],
      ['read', true, null],
      ['jobs', true, null],
    ]);
    // The SDK probe went over HTTP: it takes time, never nothing.
    expect(check?.probes[0]?.latencyMs).toBeGreaterThan(0);
    for (const p of check?.probes ?? []) expect(p.latencyMs).toBeGreaterThanOrEqual(0);
    expect((await populated(t.app, owner.cookie, server._id)).health.state).toBe('healthy');
    const events = (await timeline(t.app, owner.cookie, server._id)).events.filter((e) => e.kind === 'health');
    expect(events[0]).toMatchObject({ taskType: 'health_check', message: 'healthy' });
    // Only the key's hash is kept.
    const [row] = await t.app.database.rows<{ hash: string }>(`select health_key_hash as hash from analytics_tenants where id = '${tenantId}'`);
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers the health key at /o/sdk with its tenant, and never takes data with it at /i", async () => {
    const key = await healthKeyFor(t.app.database.db, t.app.keyring, tenantId);
    const res = await sdk(key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: 'Success', tenant: tenantId });
    expect((await sdk(`${key}x`)).status).toBe(400);
    const raw = await count(t.app, 'analytics_raw_requests');
    const refused = await hit(t.app, { app_key: key, device_id: 'd1', begin_session: '1', events: [{ key: 'probe' }] });
    expect([refused.statusCode, refused.json()]).toEqual([400, { result: 'App does not exist' }]);
    const bulk = await t.app.inject({ method: 'POST', url: '/i/bulk', payload: { app_key: key, requests: JSON.stringify([{ device_id: 'd2', begin_session: '1' }]) } });
    expect(bulk.statusCode).toBe(200);
    expect(await count(t.app, 'analytics_raw_requests')).toBe(raw);
    expect(await count(t.app, `analytics_app_users where device_id in ('d1', 'd2')`)).toBe(0);
  });

  it('is unhealthy with the reason when ingestion refuses, counting the checks in a row', async () => {
    // Past due beyond its grace: the server keeps running but ingestion refuses its data.
    await setServerState(t.app, server._id, 'running', { status: 'past_due', pastDueSince: new Date(Date.now() - 40 * 86_400_000) });
    try {
      expect(await scheduledCheck()).toEqual({ healthy: false, reason: 'ingestion answered 403' });
      await scheduledCheck();
      expect(await scheduledCheck()).toEqual({ healthy: false, reason: 'ingestion answered 403 for 3 checks' });
      const [last] = await checks();
      expect(last).toMatchObject({ healthy: false, taskId: null, reason: 'ingestion answered 403 for 3 checks' });
      expect(last?.probes.find((p) => p.name === 'sdk')).toMatchObject({ ok: false, detail: 'ingestion answered 403' });
      expect(last?.probes.find((p) => p.name === 'read')).toMatchObject({ ok: true });
      // The scheduled checks put a change on the timeline, once.
      const health = (await timeline(t.app, owner.cookie, server._id)).events.filter((e) => e.kind === 'health');
      expect(health[0]).toMatchObject({ taskId: null, message: 'unhealthy: ingestion answered 403' });
      expect(health[1]).toMatchObject({ message: 'healthy' });
      expect((await populated(t.app, owner.cookie, server._id)).health.state).toBe('unhealthy');
    } finally {
      await setServerState(t.app, server._id, 'running', { status: 'active' });
    }
    expect(await scheduledCheck()).toEqual({ healthy: true, reason: null });
  });

  it('words a drained server the same way ("ingestion answered 503 for 3 checks")', async () => {
    await setServerState(t.app, server._id, 'restoring');
    try {
      for (let i = 0; i < 2; i += 1) await scheduledCheck();
      expect(await scheduledCheck()).toEqual({ healthy: false, reason: 'ingestion answered 503 for 3 checks' });
    } finally {
      await setServerState(t.app, server._id, 'running');
    }
  });

  it('says when ingestion cannot be reached, and when the server has no dashboard', async () => {
    // A port nothing listens on any more.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as AddressInfo;
        probe.close(() => resolve(p));
      });
    });
    const closed = createServerHealth({ db: t.app.database.db, keyring: t.app.keyring, config: { ...t.app.config, HEALTH_PROBE_URL: `http://127.0.0.1:${port}` }, selfUrl: () => null });
    expect(await scheduledCheck(closed)).toEqual({ healthy: false, reason: 'ingestion unreachable (ECONNREFUSED)' });
    // A server without its dashboard (its tenant gone): nothing to probe.
    const other = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Spare Server' }))).json().payload._id as string;
    await settledIn(t.app, owner.cookie, other, 'running');
    await t.app.database.rows(`delete from analytics_tenants where deployment_id = '${other}'`);
    const run = await t.app.serverHealth.probe(other, { machine: { healthy: true, detail: 'ok' } });
    const outcome = await t.app.database.db.transaction((tx) => t.app.serverHealth.record(tx, other, run, { event: 'on_change' }));
    expect(outcome).toEqual({ healthy: false, reason: 'the server has no analytics dashboard' });
    expect(await scheduledCheck()).toEqual({ healthy: true, reason: null });
  });

  it('fails when queued jobs are late', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await t.app.database.rows(`insert into deployment_tasks (deployment_id, type, status, created_at, updated_at) values ('${server._id}', 'backup', 'queued', '${hourAgo}', '${hourAgo}')`);
    await t.app.database.rows(
      `insert into analytics_reports (tenant_id, title, metrics, app_ids, emails, frequency, hour, minute, timezone, next_run_at) values ('${tenantId}', 'Late', '["analytics"]', '["${app._id}"]', '["a@example.com"]', 'daily', 9, 0, 'UTC', '${hourAgo}')`,
    );
    try {
      expect(await scheduledCheck()).toEqual({ healthy: false, reason: 'queued jobs are late: 1 server task, 1 email report' });
      // Due, not late yet: within HEALTH_JOBS_LATE_MINUTES nothing is wrong.
      const soon = new Date(Date.now() - 60_000).toISOString();
      await t.app.database.rows(`update deployment_tasks set updated_at = '${soon}' where deployment_id = '${server._id}' and status = 'queued'`);
      await t.app.database.rows(`update analytics_reports set next_run_at = '${soon}' where tenant_id = '${tenantId}'`);
      expect(await scheduledCheck()).toEqual({ healthy: true, reason: null });
    } finally {
      await t.app.database.rows(`delete from deployment_tasks where deployment_id = '${server._id}' and status = 'queued'`);
      await t.app.database.rows(`delete from analytics_reports where tenant_id = '${tenantId}'`);
    }
  });

  it("is readable by the company's viewers, not by strangers", async () => {
    const stranger = await companyOwner(t.app, 'health-stranger@example.com');
    const res = await api(t.app, stranger.cookie, 'GET', `/deployments/${server._id}/health-checks`);
    expect(res.statusCode).toBe(403);
    expect((await api(t.app, owner.cookie, 'GET', '/deployments/not-a-uuid/health-checks')).statusCode).toBe(404);
  });
});

describe('ingestion while a server is drained', () => {
  const event = () => hit(t.app, { app_key: app.key, device_id: 'drained', begin_session: '1', events: [{ key: 'kept' }] });

  it.each([
    ['restarting', '30'],
    ['restoring', '120'],
  ])('answers 503 with Retry-After while %s, and takes nothing', async (status, retryAfter) => {
    await setServerState(t.app, server._id, status);
    try {
      const raw = await count(t.app, 'analytics_raw_requests');
      const res = await event();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(retryAfter);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe('retry-after');
      expect(res.json()).toEqual({ result: expect.stringContaining(`${retryAfter} seconds`) });
      const bulk = await t.app.inject({ method: 'POST', url: '/i/bulk', payload: { app_key: app.key, requests: JSON.stringify([{ device_id: 'drained', begin_session: '1' }]) } });
      expect([bulk.statusCode, bulk.headers['retry-after']]).toEqual([503, retryAfter]);
      const settings = await sdk(app.key);
      expect([settings.status, settings.headers.get('retry-after')]).toEqual([503, retryAfter]);
      expect(await count(t.app, 'analytics_raw_requests')).toBe(raw);
    } finally {
      await setServerState(t.app, server._id, 'running');
    }
    expect((await event()).json()).toEqual({ result: 'Success' });
  });

  it('refuses (403), not delays, a drained server whose subscription takes no data', async () => {
    await setServerState(t.app, server._id, 'restarting', { status: 'canceled' });
    try {
      expect((await event()).statusCode).toBe(403);
    } finally {
      await setServerState(t.app, server._id, 'running', { status: 'active' });
    }
  });
});

describe('a restart', () => {
  it('drains the server (503 with Retry-After), restarts it and ends with a health check', async () => {
    const started = await act('restart');
    expect(started.statusCode).toBe(200);
    const taskId = started.json().payload.task._id as string;
    // The drain lasts RESTART_DRAIN_MS: ingestion asks the SDKs to come back meanwhile.
    const drained = await until(async () => {
      const res = await hit(t.app, { app_key: app.key, device_id: 'restart', begin_session: '1' });
      return res.statusCode === 503 ? res : null;
    }, 10_000, 'a drained answer');
    expect(drained.headers['retry-after']).toBe('30');
    await settledIn(t.app, owner.cookie, server._id, 'running');
    const { tasks, events } = await timeline(t.app, owner.cookie, server._id);
    const restart = tasks.find((x) => x._id === taskId);
    expect(restart).toMatchObject({ status: 'completed' });
    expect(restart?.steps.map((s) => s.name)).toEqual(['drain', 'restart', 'wait_boot', 'health']);
    expect(events.filter((e) => e.kind === 'status' && e.taskId === taskId).map((e) => e.toStatus).reverse()).toEqual(['restarting', 'running']);
    const [last] = await checks();
    // Its last check ran with ingestion open again: the probe reached a taking server.
    expect(last).toMatchObject({ taskId, healthy: true, reason: null });
    expect((await hit(t.app, { app_key: app.key, device_id: 'restart', begin_session: '1' })).json()).toEqual({ result: 'Success' });
  });
});
