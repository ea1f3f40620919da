import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './net';

/** The compiled server as `npm start` runs it, in a child process the test can signal or kill. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  log: () => string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * A PostgreSQL database of its own when the suite runs with DATABASE_URL, or on the server
 * `serverUrl` names (dropped by `drop`); otherwise '' and the server uses PGlite in its data directory.
 */
export async function scratchDatabase(prefix: string, serverUrl = process.env.DATABASE_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!serverUrl) return { url: '', drop: async () => undefined };
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  // A copy of the run's migrated template (tests/support/databaseTemplate.ts) on the suite's own server.
  const template = serverUrl === process.env.DATABASE_URL ? inject('databaseTemplate') : '';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Starts the server and waits until health answers; output is kept unless `readOutput` is false. */
export async function startServer(options: { serverFile: string; databaseUrl: string; dataDir: string; env?: Record<string, string>; readOutput?: boolean; startMs?: number }): Promise<ServerProcess> {
  const port = await freePort();
  // A test's server lives seconds: on PGlite it skips V8's optimising compiler for the database's
  // WebAssembly, a third of the CPU of each start (the process tests' PGlite pass: 138 CPU-s to 109).
  const child = spawn(process.execPath, [...(options.databaseUrl ? [] : ['--liftoff-only']), options.serverFile], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      STATIC_DIR: './no-such-build',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  if (options.readOutput !== false) {
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  }
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    if (await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false)) return { child, url, log: () => out, ended };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer health in time:\n${out}`);
}

/** One JSON call to a running server: status, parsed envelope and the session cookie it set. */
export async function callServer(server: ServerProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as { payload: Record<string, unknown> & { _id?: string } }) : null, cookie: /beacon_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] };
}

/** A worker process alone (the compiled `worker.js` beside `serverFile`), ready once it says so. */
export async function startWorkerProcess(workerFile: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [workerFile], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += d.toString();
      if (out.includes('task worker started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', () => reject(new Error(`worker exited:\n${out}`)));
  });
  return child;
}

/**
 * The first admin of a running server process signs in, makes a company and orders a free server
 * with the default domain, 6 months' retention and daily backups: its session and the answer.
 */
export async function orderFreeServer(server: ServerProcess, admin: { email: string; password: string }, name: string) {
  const { cookie = '' } = await callServer(server, 'POST', '/auth/signin', admin);
  const company = (await callServer(server, 'POST', '/companies', { name: `${name} Company` }, { cookie })).json?.payload as { _id: string; projects: { _id: string }[] };
  const plans = (await callServer(server, 'GET', '/plans/public')).json?.payload as unknown as { _id: string; code: string }[];
  const conf = (await callServer(server, 'GET', '/plans/configurables/public/gcp')).json?.payload as unknown as Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]>;
  const pick = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id;
  const order = {
    name,
    plan: pick(plans, 'v3.mau_500_gcp.base'),
    paymentCycle: 'month',
    planConfig: { region: pick(conf.regions, 'us-central1'), size: pick(conf.sizes, 'mau_500'), features: ['domain.default', 'retention.6m', 'backup.daily'].map((c) => pick(conf.features, c)) },
    paymentVendor: 'free',
    company: company._id,
    project: company.projects[0]?._id,
    provider: 'gcp',
  };
  const answer = await callServer(server, 'POST', '/deployments', order, { cookie, 'idempotency-key': randomUUID() });
  return { cookie, answer };
}
