import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { TENANT_TABLES, tenantRowsSql } from '../../server/backups/tenantTables';
import { s3Settings, startFakeS3, type FakeS3 } from '../support/s3';
import { callServer, orderFreeServer, scratchDatabase, startServer, startWorkerProcess, type ServerProcess } from '../support/serverProcess';

/**
 * Backups and restores survive SIGKILL, on PostgreSQL: an API process and a worker process share
 * the database and an S3-compatible bucket; the worker is killed at a random moment of each backup
 * and each restore, then replaced. Right after each kill the tenant's data is either as it was
 * before or exactly as the backup (never between); after the retry it is the backup's. A backup's
 * archive is either whole (its size and checksum as recorded) or absent, never a part.
 */
const ROUNDS = 3;
const ADMIN = { email: 'backup-crash@example.com', password: 'Crash#Backup-2026' };
const POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FAST = {
  MOCK_CLOUD_BOOT_MS: '100',
  MOCK_CLOUD_CALL_MS: '0',
  QUEUE_POLL_MS: '500',
  QUEUE_SUPERVISE_SECONDS: '1',
  TASK_HEARTBEAT_SECONDS: '10',
  TASK_RETRY_DELAY_SECONDS: '0',
  TASK_MAX_ATTEMPTS: '20',
  RESTART_DRAIN_MS: '0',
  LOG_LEVEL: 'warn',
};

const root = mkdtempSync(join(tmpdir(), 'beacon-backup-crash-'));
const outdir = join('node_modules', '.cache', `beacon-server-${randomBytes(4).toString('hex')}`);
let serverFile = '';
let database: { url: string; drop: () => Promise<void> } = { url: '', drop: async () => undefined };
let s3: FakeS3;
const children: ChildProcess[] = [];

beforeAll(async () => {
  serverFile = await buildServer(outdir);
  database = await scratchDatabase('beacon_backup_crash', POSTGRES);
  s3 = await startFakeS3();
}, 300_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await database.drop();
  await s3.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(join(outdir, 'worker.js'), { ...FAST, ...s3Settings(s3), LOG_LEVEL: 'info', DATABASE_URL: database.url, DATA_DIR: join(root, 'data') });
  children.push(child);
  return child;
}

describe('backups and restores under worker crashes', () => {
  it(`keeps the data whole through ${ROUNDS} killed backups and ${ROUNDS} killed restores`, { timeout: 300_000 }, async () => {
    const api: ServerProcess = await startServer({ serverFile, databaseUrl: database.url, dataDir: join(root, 'data'), env: { ...FAST, ...s3Settings(s3), WORKER_ENABLED: 'false', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    children.push(api.child);
    let worker = await startWorker();
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const one = async <T>(text: string) => (await db.query(text)).rows[0] as T;

    // A server with the daily backup option, running.
    const { cookie, answer } = await orderFreeServer(api, ADMIN, 'Backup Crash Server');
    const id = String(answer.json?.payload._id);
    const settled = async (status: string, ms = 120_000) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const row = await one<{ status: string; open: number }>(`select d.status, (select count(*)::int from deployment_tasks t where t.deployment_id = d.id and t.status in ('queued', 'running')) as open from deployments d where d.id = '${id}'`);
        if (row.status === status && row.open === 0) return;
        await sleep(200);
      }
      throw new Error(`server not ${status} in time`);
    };
    await settled('running');
    expect((await callServer(api, 'POST', `/analytics/${id}/open`, {}, { cookie })).status).toBe(200);
    const tenant = (await one<{ id: string }>(`select id from analytics_tenants where deployment_id = '${id}'`)).id;

    // Enough data that a backup and a restore take a while: 60,000 daily rows, 20,000 raw requests.
    const app = (await callServer(api, 'POST', `/analytics/${id}/apps`, { name: 'Crash app' }, { cookie })).json?.payload as { _id: string };
    await db.query(`insert into analytics_daily_events (app_id, event_key, day, segment, value, count, sum, dur)
      select '${app._id}', 'k' || (g % 50), to_char(date '2026-01-01' + (g / 50 % 300), 'YYYY-MM-DD'), 's', 'v' || (g / 15000), g, g * 0.5, 1 from generate_series(1, 60000) g`);
    await db.query(`insert into analytics_raw_requests (app_id, device_id, events, first_at, last_at)
      select '${app._id}', 'd' || (g % 500), jsonb_build_array(jsonb_build_object('key', 'k' || (g % 50), 'count', 1, 'sum', null, 'dur', null, 'segmentation', jsonb_build_object('s', 'v'), 'timestamp', now())), now(), now() from generate_series(1, 20000) g`);

    /** A digest of every row of the tenant (raw request ids aside: a restore numbers them anew). */
    const digest = async () => {
      const parts: string[] = [];
      for (const spec of TENANT_TABLES) {
        const row = await one<{ d: string | null }>(`select md5(string_agg((to_jsonb(x) ${spec.skip?.includes('id') ? "- 'id'" : ''})::text, '|' order by ${spec.orderBy.filter((c) => !spec.skip?.includes(c)).map((c) => `x.${c}`).join(', ') || 'x.first_at, x.device_id, x.events::text'})) as d from ${tenantRowsSql(spec, tenant)}`);
        parts.push(`${spec.table}:${row.d ?? ''}`);
      }
      return createHash('sha256').update(parts.join('\n')).digest('hex');
    };
    /** A change after the backup: one day of rows gone, a new event. */
    const change = async () => {
      await db.query(`delete from analytics_daily_events where app_id = '${app._id}' and day = '2026-01-01'`);
      await db.query(`insert into analytics_daily_events (app_id, event_key, day, count) values ('${app._id}', 'after-${randomUUID()}', '2026-11-01', 1)`);
    };
    const kill = async () => {
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
    };

    // Backups, each killed at a random moment and resumed by a new worker.
    let backupId = '';
    for (let round = 0; round < ROUNDS; round += 1) {
      const asked = await callServer(api, 'POST', `/deployments/${id}/backups`, {}, { cookie });
      expect(asked.status, JSON.stringify(asked.json)).toBe(200);
      await sleep(Math.floor(Math.random() * 1500));
      await kill();
      // Meanwhile: an archive in the bucket is whole, or there is none.
      for (const row of (await db.query(`select id, status, size_bytes, sha256 from deployment_backups where deployment_id = '${id}'`)).rows as { id: string; status: string; size_bytes: string | null; sha256: string | null }[]) {
        const stored = s3.objects.get(`tenants/${id}/${row.id}.tar.gz`);
        if (row.status === 'completed') expect(createHash('sha256').update(stored as Buffer).digest('hex')).toBe(row.sha256);
        else if (stored) expect(stored.subarray(0, 2).toString('hex')).toBe('1f8b');
      }
      worker = await startWorker();
      await settled('running');
      const latest = await one<{ id: string; status: string; size_bytes: string; sha256: string }>(`select id, status, size_bytes, sha256 from deployment_backups where deployment_id = '${id}' order by created_at desc limit 1`);
      expect(latest.status).toBe('completed');
      const stored = s3.objects.get(`tenants/${id}/${latest.id}.tar.gz`) as Buffer;
      expect(stored.length).toBe(Number(latest.size_bytes));
      expect(createHash('sha256').update(stored).digest('hex')).toBe(latest.sha256);
      backupId = latest.id;
    }
    const atBackup = await digest();

    // Restores, each killed at a random moment: right after the kill, as before or as the backup.
    let caughtBefore = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      await change();
      const before = await digest();
      expect(before).not.toBe(atBackup);
      const asked = await callServer(api, 'POST', `/deployments/${id}/restore`, { backupId }, { cookie });
      expect(asked.status, JSON.stringify(asked.json)).toBe(200);
      await sleep(300 + Math.floor(Math.random() * 1500));
      await kill();
      const now = await digest();
      expect([before, atBackup]).toContain(now);
      if (now === before) caughtBefore += 1;
      worker = await startWorker();
      await settled('running');
      expect(await digest()).toBe(atBackup);
    }
    const resumed = await one<{ n: number }>(`select count(*)::int as n from deployment_tasks where deployment_id = '${id}' and type in ('backup', 'restore') and attempts > 1`);
    console.log(`backup crash: ${ROUNDS * 2} kills, ${resumed.n} tasks resumed, ${caughtBefore} restores killed before their commit`);
    expect(resumed.n).toBeGreaterThan(0);
    await db.end();
    worker.kill('SIGTERM');
    api.child.kill('SIGTERM');
    await api.ended;
  });
});
