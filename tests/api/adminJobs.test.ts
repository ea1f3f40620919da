import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { adminCookie, auditRows, call, raQuery } from '../support/admin';
import { companyOwner } from '../support/orders';
import { scratchDatabase } from '../support/serverProcess';
import { FAST_SERVERS, until } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

interface JobRow {
  name: string;
  state: string;
  cron: string | null;
  timezone: string | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastRunState: string | null;
  failed: number;
}

const job = async (app: FastifyInstance, cookie: string, name: string) => (await call(app, 'GET', `/admin/jobs/${name}`, cookie)).json().payload as JobRow;
const act = (app: FastifyInstance, cookie: string, name: string, action: string) => call(app, 'POST', `/admin/jobs/${name}/${action}`, cookie, {});
const scheduled = async (app: FastifyInstance) => (await app.queue.boss.getSchedules()).map((s) => s.name).sort();
/** Jobs waiting in a queue (pg-boss's own table, not its lagging counters). */
const waiting = async (app: FastifyInstance, name: string) =>
  (await app.database.rows<{ n: number }>(`select count(*)::int as n from pgboss.job where name = '${name}' and state in ('created', 'retry')`))[0]?.n;

describe('admin jobs', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ ...FAST_SERVERS });
    admin = await adminCookie(t.app);
  });
  afterAll(() => t.close());

  it('lists every queue with its state, schedule, next run, last run and failures', async () => {
    const res = await call(t.app, 'GET', `/admin/jobs?${raQuery({ sort: ['name', 'ASC'] })}`, admin);
    expect(res.statusCode).toBe(200);
    const rows = res.json().payload as JobRow[];
    const next = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1)).toISOString();
    expect(rows.find((r) => r.name === 'nightly-backups')).toEqual(
      expect.objectContaining({ state: 'scheduled', cron: '0 0 1 1 *', timezone: 'UTC', nextRunAt: next, lastRunAt: null, lastRunState: null, failed: 0 }),
    );
    expect(rows.find((r) => r.name === 'deployment-tasks')).toEqual(expect.objectContaining({ state: 'onDemand', cron: null, nextRunAt: null }));
    expect((await call(t.app, 'GET', `/admin/jobs?${raQuery({ sort: ['nextRunAt', 'ASC'] })}`, admin)).json().payload.at(-1).nextRunAt).toBeNull();
    const csv = await call(t.app, 'GET', '/admin/jobs/export?format=csv', admin);
    expect(csv.body.split('\n')[0]).toBe('Name,State,Schedule,Time zone,Next run,Last run,Last run state,Policy,Queued,Active,Deferred,Failed,Total');
  });

  it('runs a scheduled job now once however often it is asked while it waits, audited once', async () => {
    // Nobody takes the job here, so both clicks find the first one still waiting.
    await t.app.queue.boss.offWork('health-checks');
    const [a, b] = await Promise.all([act(t.app, admin, 'health-checks', 'run'), act(t.app, admin, 'health-checks', 'run')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().payload).toMatchObject({ name: 'health-checks', state: 'scheduled' });
    expect(await waiting(t.app, 'health-checks')).toBe(1);
    expect(await auditRows(t.app, 'job.run')).toEqual([expect.objectContaining({ actor_email: 'root@example.com', target_type: 'job', target_id: 'health-checks' })]);
  });

  it('pauses a schedule (kept with its cron, no next run) and resumes it; the wrong state is a 409 that changes nothing', async () => {
    const paused = await act(t.app, admin, 'nightly-backups', 'pause');
    expect(paused.statusCode).toBe(200);
    expect(paused.json().payload).toMatchObject({ name: 'nightly-backups', state: 'paused', cron: '0 0 1 1 *', timezone: 'UTC', nextRunAt: null });
    expect(await scheduled(t.app)).not.toContain('nightly-backups');
    expect(await auditRows(t.app, 'job.pause')).toEqual([expect.objectContaining({ target_id: 'nightly-backups', before: { state: 'scheduled', cron: '0 0 1 1 *', timezone: 'UTC' }, after: { state: 'paused' } })]);

    const before = await tableCounts(t.app);
    const again = await act(t.app, admin, 'nightly-backups', 'pause');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'JOB_STATE_CONFLICT' });
    expect(await tableCounts(t.app)).toEqual(before);

    const resumed = await act(t.app, admin, 'nightly-backups', 'resume');
    expect(resumed.json().payload).toMatchObject({ state: 'scheduled', cron: '0 0 1 1 *', nextRunAt: expect.any(String) });
    expect(await scheduled(t.app)).toContain('nightly-backups');
    expect(await auditRows(t.app, 'job.resume')).toHaveLength(1);

    const after = await tableCounts(t.app);
    expect((await act(t.app, admin, 'nightly-backups', 'resume')).json()).toMatchObject({ code: 'JOB_STATE_CONFLICT' });
    expect(await tableCounts(t.app)).toEqual(after);
  });

  it('refuses actions on queues without a schedule, unknown jobs and actions, and non-admins', async () => {
    const before = await tableCounts(t.app);
    const onDemand = await act(t.app, admin, 'deployment-tasks', 'pause');
    expect(onDemand.statusCode).toBe(409);
    expect(onDemand.json()).toMatchObject({ code: 'JOB_STATE_CONFLICT' });
    expect((await act(t.app, admin, 'deployment-tasks', 'run')).statusCode).toBe(409);
    expect((await act(t.app, admin, 'no-such-job', 'run')).json()).toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await call(t.app, 'GET', '/admin/jobs/no-such-job', admin)).statusCode).toBe(404);
    expect((await act(t.app, admin, 'nightly-backups', 'explode')).statusCode).toBe(400);
    const owner = await companyOwner(t.app, 'owner@example.com');
    const counted = await tableCounts(t.app);
    expect((await act(t.app, owner.cookie, 'nightly-backups', 'pause')).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(counted);
    expect(await scheduled(t.app)).toContain('nightly-backups');
    expect(before.paused_schedules).toBe(0);
  });
});

describe('admin jobs with the worker', () => {
  let dataDir: string;
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let app: FastifyInstance;
  let admin: string;
  // A restart: the same database (PGlite in a directory, or a PostgreSQL database) opened again.
  // The worker polls once a minute, the longest allowed: only the new job's notice can start it sooner.
  const start = () =>
    buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, STATIC_DIR: './no-such-build', ...(scratch.url ? { DATABASE_URL: scratch.url } : {}), ...FAST_SERVERS, QUEUE_POLL_MS: '60000' }), { logger: false });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'beacon-jobs-'));
    scratch = await scratchDatabase('beacon_test');
    app = await start();
    admin = await adminCookie(app);
  });
  afterAll(async () => {
    await app.close();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the job for real at once after "run now", not at the next poll: its last run shows it completed', async () => {
    expect((await job(app, admin, 'mau-sampling')).lastRunAt).toBeNull();
    expect((await act(app, admin, 'mau-sampling', 'run')).statusCode).toBe(200);
    const ran = await until(async () => {
      const row = await job(app, admin, 'mau-sampling');
      return row.lastRunAt ? row : null;
    }, 30_000, 'the run-now job to complete (the next poll is a minute away)');
    expect(ran).toMatchObject({ lastRunState: 'completed', state: 'scheduled' });
  });

  it('keeps a paused schedule paused when the app and its worker start again, and resumes it afterwards', async () => {
    expect((await act(app, admin, 'terminations', 'pause')).json().payload.state).toBe('paused');
    await app.close();
    app = await start();
    expect(await scheduled(app)).not.toContain('terminations');
    expect(await scheduled(app)).toContain('past-due-pauses');
    expect(await job(app, admin, 'terminations')).toMatchObject({ state: 'paused', cron: '0 0 1 1 *', nextRunAt: null });
    expect((await act(app, admin, 'terminations', 'resume')).json().payload.state).toBe('scheduled');
    expect(await scheduled(app)).toContain('terminations');
  });
});
