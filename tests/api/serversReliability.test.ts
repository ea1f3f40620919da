import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { callServer, scratchDatabase, startServer, startWorkerProcess, type ServerProcess } from '../support/serverProcess';

/**
 * Running servers survive crashes, on PostgreSQL: 2 API processes and 2 worker processes share one
 * database; 200 orders are submitted at once (a fifth of them paid, then paid), while workers are
 * SIGKILLed and restarted at random. In the end every server is running, every task completed
 * exactly once, and mock-cloud's call log proves no step did its work twice (no second machine).
 * Uses DATABASE_URL, or the local PostgreSQL of the development set-up (CONTRIBUTING.md).
 */
const ORDERS = 200;
const KILLS = 4;
const ADMIN = { email: 'reliability-admin@example.com', password: 'Reliable#Admin-2026' };
const POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const root = mkdtempSync(join(tmpdir(), 'beacon-reliability-'));
const outdir = join('node_modules', '.cache', `beacon-server-${randomBytes(4).toString('hex')}`);
let serverFile = '';
let database: { url: string; drop: () => Promise<void> } = { url: '', drop: async () => undefined };
const children: ChildProcess[] = [];

// Quick machines, quick recovery: a dead worker's jobs come back after the 10 s heartbeat.
const FAST = {
  // One user places all 200 orders.
  ORDERS_PER_USER_PER_HOUR: '1000',
  MOCK_CLOUD_BOOT_MS: '300',
  MOCK_CLOUD_CALL_MS: '20',
  QUEUE_POLL_MS: '500',
  QUEUE_SUPERVISE_SECONDS: '2',
  TASK_HEARTBEAT_SECONDS: '10',
  TASK_RETRY_DELAY_SECONDS: '1',
  TASK_MAX_ATTEMPTS: '20',
  WORKER_CONCURRENCY: '8',
  LOG_LEVEL: 'warn',
};

beforeAll(async () => {
  serverFile = await buildServer(outdir);
  database = await scratchDatabase('beacon_reliability', POSTGRES);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await database.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startApi(): Promise<ServerProcess> {
  return startServer({ serverFile, databaseUrl: database.url, dataDir: join(root, 'data'), env: { ...FAST, WORKER_ENABLED: 'false', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
}

/** A worker process (dist-server/worker.js), ready once it says so. */
async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(join(outdir, 'worker.js'), { ...FAST, LOG_LEVEL: 'info', DATABASE_URL: database.url });
  children.push(child);
  return child;
}

async function orderBodies(api: ServerProcess, cookie: string) {
  const company = await callServer(api, 'POST', '/companies', { name: 'Reliable Servers' }, { cookie });
  const { _id: companyId, projects } = company.json?.payload as { _id: string; projects: { _id: string }[] };
  const plans = (await callServer(api, 'GET', '/plans/public')).json?.payload as unknown as { _id: string; code: string }[];
  const conf = (await callServer(api, 'GET', '/plans/configurables/public/gcp')).json?.payload as unknown as Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]>;
  const pick = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id;
  return Array.from({ length: ORDERS }, (_, i) => {
    const free = i % 5 !== 0;
    return {
      name: `Reliable ${i}`,
      plan: pick(plans, free ? 'v3.mau_500_gcp.base' : 'v3.mau_1_000_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: pick(conf.regions, 'us-central1'), size: pick(conf.sizes, 'mau_500'), features: [pick(conf.features, 'domain.default'), pick(conf.features, 'retention.6m')] },
      paymentVendor: free ? 'free' : 'paddle',
      company: companyId,
      project: projects[0]?._id,
      provider: 'gcp',
    };
  });
}

describe('running servers under worker crashes', () => {
  it(`brings ${ORDERS} concurrent orders to running, each task once, while workers are killed`, async () => {
    const apis = [await startApi(), await startApi()];
    children.push(...apis.map((a) => a.child));
    const workers = [await startWorker(), await startWorker()];
    const signIn = await callServer(apis[0] as ServerProcess, 'POST', '/auth/signin', ADMIN);
    const cookie = signIn.cookie ?? '';
    const bodies = await orderBodies(apis[0] as ServerProcess, cookie);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const open = async () => Number((await db.query("select count(*)::int as n from deployment_tasks where status in ('queued', 'running')")).rows[0].n);

    // Orders go to both API processes at once; paid ones are paid as soon as they are recorded.
    const orders = bodies.map(async (body, i) => {
      const api = apis[i % 2] as ServerProcess;
      const res = await callServer(api, 'POST', '/deployments', body, { cookie, 'idempotency-key': randomUUID() });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const id = String(res.json?.payload._id);
      if (body.paymentVendor === 'paddle') {
        const paid = await callServer(api, 'POST', `/payments/checkout/${id}/pay`, { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' }, { cookie });
        expect(paid.status, JSON.stringify(paid.json)).toBe(200);
      }
      return id;
    });

    // Meanwhile, workers are killed at random while tasks are still open, and replaced.
    let killedWithWorkLeft = 0;
    for (let k = 0; k < KILLS; k += 1) {
      await sleep(400 + Math.floor(Math.random() * 1200));
      if ((await open()) > 0) killedWithWorkLeft += 1;
      const victim = Math.floor(Math.random() * workers.length);
      workers[victim]?.kill('SIGKILL');
      workers[victim] = await startWorker();
    }
    const ids = await Promise.all(orders);
    expect(new Set(ids).size).toBe(ORDERS);
    expect(killedWithWorkLeft).toBeGreaterThan(0);

    const deadline = Date.now() + 75_000;
    let running = 0;
    while (Date.now() < deadline) {
      running = Number((await db.query("select count(*)::int as n from deployments where status = 'running'")).rows[0].n);
      if (running === ORDERS && (await open()) === 0) break;
      await sleep(500);
    }
    expect(running).toBe(ORDERS);

    // Every server has exactly one provision task, completed; nothing failed or was left behind.
    const tasks = await db.query('select status, count(*)::int as n, max(attempts)::int as attempts from deployment_tasks group by status');
    expect(tasks.rows.map((r) => [r.status, r.n])).toEqual([['completed', ORDERS]]);
    const perServer = await db.query("select count(*)::int as n from deployment_tasks where type = 'provision' group by deployment_id having count(*) <> 1");
    expect(perServer.rows).toEqual([]);

    // mock-cloud did each step's work once per server: one machine each, one address, one health check.
    const calls = await db.query("select op, count(*)::int as n, count(distinct deployment_id)::int as servers from mock_cloud_calls where outcome = 'applied' group by op order by op");
    expect(calls.rows).toEqual([
      { op: 'createMachine', n: ORDERS, servers: ORDERS },
      { op: 'health', n: ORDERS, servers: ORDERS },
      { op: 'setDomain', n: ORDERS, servers: ORDERS },
    ]);
    expect(Number((await db.query('select count(*)::int as n from mock_cloud_machines')).rows[0].n)).toBe(ORDERS);
    // The kills did land mid-task: some tasks were taken up again (and finished without redoing their steps).
    const resumed = Number((await db.query('select count(*)::int as n from deployment_tasks where attempts > 1')).rows[0].n);
    const replayed = Number((await db.query("select count(*)::int as n from mock_cloud_calls where outcome = 'replayed'")).rows[0].n);
    console.log(`reliability: ${KILLS} worker kills, ${resumed} tasks resumed, ${replayed} provider calls answered from their request key`);
    expect(resumed).toBeGreaterThan(0);
    const failedJobs = await db.query("select count(*)::int as n from pgboss.job where name like 'deployment-tasks%' and state = 'failed'");
    expect(failedJobs.rows[0].n).toBe(0);
    await db.end();
    for (const w of workers) w.kill('SIGTERM');
    for (const a of apis) a.child.kill('SIGTERM');
    await Promise.all(apis.map((a) => a.ended));
  }, 180_000);
});
