import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { freePort } from '../support/net';

/**
 * The compiled server as `npm start` runs it, stopped by a signal after real traffic, again and
 * again: every stop must end the process, with in-flight requests answered, before the shutdown
 * timeout. On PGlite on disk, or on PostgreSQL when the suite runs with DATABASE_URL.
 */
const RUNS = Number(process.env.STOP_RUNS ?? 20);
const PARALLEL = 2;
const SHUTDOWN_TIMEOUT_MS = 10_000;
const PASSWORD = 'Tr1cky-Lantern';

const root = mkdtempSync(join(tmpdir(), 'beacon-stop-'));
// Inside the project, so the compiled server finds node_modules.
const outdir = join('node_modules', '.cache', `beacon-server-${randomBytes(4).toString('hex')}`);
let serverFile = '';
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  serverFile = await buildServer(outdir);
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `beacon_stop_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await dropDatabase?.();
});

interface Server {
  child: ChildProcess;
  url: string;
  log: () => string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function start(dataDir: string, env: Record<string, string> = {}, readOutput = true): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverFile], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: './no-such-build',
      LOG_LEVEL: 'info',
      // Development logs mailed links (no SMTP here): the test reads them from the log.
      NODE_ENV: 'development',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  if (readOutput) {
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  }
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    if (await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false)) return { child, url, log: () => out, ended };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer health in time:\n${out}`);
}

/** Sends the signal and waits for the process to end, at most the timeout plus a little slack. */
async function stop(server: Server, signal: NodeJS.Signals) {
  server.child.kill(signal);
  const slack = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), SHUTDOWN_TIMEOUT_MS + 2_000).unref());
  const result = await Promise.race([server.ended, slack]);
  if (result === 'hung') server.child.kill('SIGKILL');
  return result;
}

async function api(server: Server, method: string, path: string, body?: unknown, cookie?: string) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as { payload: Record<string, unknown> }) : null, cookie: /beacon_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] };
}

/** The verification link the server logged for this address (no SMTP_URL: the outbox and the log). */
async function verificationToken(server: Server, email: string): Promise<string> {
  for (let i = 0; i < 200; i += 1) {
    const token = new RegExp(`"to":"${email.replace(/[.+]/g, '\\$&')}"[^\\n]*account/verify\\?token=([\\w-]+)`).exec(server.log())?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no verification mail to ${email}`);
}

/** Sign-ups, verifications through the mailed link, a company, an invitation, a price. */
async function traffic(server: Server, tag: string) {
  const owner = `owner-${tag}@example.com`;
  const signUp = (email: string) => api(server, 'POST', '/users', { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD });
  const [a, b] = await Promise.all([signUp(owner), signUp(`second-${tag}@example.com`)]);
  expect([a.status, b.status]).toEqual([201, 201]);
  // Sign-up signs nobody in: the verification link does.
  const verified = await api(server, 'POST', '/auth/verify', { token: await verificationToken(server, owner) });
  expect(verified.status).toBe(200);
  const company = await api(server, 'POST', '/companies', { name: `Stop ${tag}` }, verified.cookie);
  expect(company.status).toBe(201);
  const invited = await api(server, 'POST', `/companies/${String(company.json?.payload._id)}/invitations`, { email: `invited-${tag}@example.com`, role: 'viewer' }, verified.cookie);
  expect(invited.status).toBe(201);
  expect((await api(server, 'GET', '/plans/public')).status).toBe(200);
  // Mails that go out after their answer (forgot-password) are still being written at the signal.
  expect((await api(server, 'POST', '/auth/forgot-password', { email: owner })).status).toBe(200);
}

async function cycle(dataDir: string, run: number) {
  const server = await start(dataDir);
  const tag = `${run}-${randomBytes(3).toString('hex')}`;
  await traffic(server, tag);
  // A request in flight when the signal comes (a sign-up hashes a password) is still answered.
  const inFlight = api(server, 'POST', '/users', { firstName: 'Late', lastName: 'Comer', email: `late-${tag}@example.com`, password: PASSWORD });
  await new Promise((r) => setTimeout(r, 20));
  const ended = await stop(server, run % 2 ? 'SIGINT' : 'SIGTERM');
  expect(ended, server.log()).toEqual({ code: 0, signal: null });
  expect((await inFlight).status).toBe(201);
  expect(server.log()).toContain('shutting down');
}

describe('stopping the server', () => {
  it(`ends gracefully after real traffic, ${RUNS} times in a row`, async () => {
    // Each lane has its own data directory (one PGlite per directory), and restarts on it.
    await Promise.all(
      Array.from({ length: PARALLEL }, async (_, lane) => {
        const dataDir = join(root, `lane-${lane}`);
        for (let run = lane; run < RUNS; run += PARALLEL) await cycle(dataDir, run);
      }),
    );
  }, 600_000);

  it('ends by the timeout even when nothing reads its log and the log pipe is full', async () => {
    const server = await start(join(root, 'unread'), { SHUTDOWN_TIMEOUT_MS: '3000', LOG_LEVEL: 'trace' }, false);
    // Enough logged requests to fill the pipe; once it is full they may hang, so each gives up.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 40; i += 1) await fetch(`${server.url}/api/v1/plans/public`, { signal: AbortSignal.timeout(500) }).catch(() => undefined);
      }),
    );
    server.child.kill('SIGTERM');
    const slack = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3_000 + 2_000).unref());
    const result = await Promise.race([server.ended, slack]);
    if (result === 'hung') server.child.kill('SIGKILL');
    expect(result).not.toBe('hung');
  }, 120_000);
});
