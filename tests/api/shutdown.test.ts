import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { callServer, scratchDatabase, startServer, type ServerProcess } from '../support/serverProcess';

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
  const database = await scratchDatabase('beacon_stop');
  databaseUrl = database.url;
  dropDatabase = database.drop;
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await dropDatabase?.();
});

type Server = ServerProcess;

const start = (dataDir: string, env: Record<string, string> = {}, readOutput = true) =>
  startServer({
    serverFile,
    databaseUrl,
    dataDir,
    // Development logs mailed links (no SMTP here): the test reads them from the log.
    env: { NODE_ENV: 'development', SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS), ...env },
    readOutput,
  });

/** Sends the signal and waits for the process to end, at most the timeout plus a little slack. */
async function stop(server: Server, signal: NodeJS.Signals) {
  server.child.kill(signal);
  const slack = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), SHUTDOWN_TIMEOUT_MS + 2_000).unref());
  const result = await Promise.race([server.ended, slack]);
  if (result === 'hung') server.child.kill('SIGKILL');
  return result;
}

const api = (server: Server, method: string, path: string, body?: unknown, cookie?: string) => callServer(server, method, path, body, cookie ? { cookie } : {});

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
