import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { openDatabase } from '../../server/db/client';
import { RAW_EVENTS } from '../support/analytics';
import { callServer, orderFreeServer, scratchDatabase, startServer, type ServerProcess } from '../support/serverProcess';

/**
 * Batched ingestion survives SIGKILL: callers send /i/bulk calls (each inner request a device of
 * its own) to the compiled server, which is killed mid-run; the SDKs' behaviour follows: after a
 * restart on the same data, every call not answered "Success" is sent again, and so are a few
 * that were (an answer lost on the way). In the end every device's events are stored exactly
 * once: nothing acknowledged lost, no retry doubled. PGlite on disk, or PostgreSQL with DATABASE_URL.
 */
const CALLERS = 6;
const CALLS_PER_CALLER = 15;
const REQUESTS = 20;
const EVENTS = 5;
const ADMIN = { email: 'ingest-crash@example.com', password: 'Crash#Ingest-2026' };

const root = mkdtempSync(join(tmpdir(), 'beacon-ingest-crash-'));
const dataDir = join(root, 'data');
const outdir = join('node_modules', '.cache', `beacon-server-${randomBytes(4).toString('hex')}`);
let serverFile = '';
let database: { url: string; drop: () => Promise<void> } = { url: '', drop: async () => undefined };

beforeAll(async () => {
  serverFile = await buildServer(outdir);
  database = await scratchDatabase('beacon_ingest_crash');
}, 300_000);
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await database.drop();
});

// Three starts on a shared machine: a slow one is not what this test is about.
const start = () => startServer({ serverFile, databaseUrl: database.url, dataDir, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', INGEST_RATE_LIMIT_PER_MINUTE: '1000000', WORKER_ENABLED: 'false' }, startMs: 180_000 });

/** A free server of the first admin, ordered (tests run no task worker, so it is not running yet). */
async function orderServer(server: ServerProcess): Promise<{ cookie: string; deploymentId: string }> {
  const { cookie, answer: deployment } = await orderFreeServer(server, ADMIN, 'Ingest Crash Server');
  expect(deployment.status).toBe(201);
  return { cookie, deploymentId: String(deployment.json?.payload._id) };
}

/** Puts the server in the state its provisioning would (the embedded database takes one process: the server is stopped). */
async function markRunning(deploymentId: string): Promise<void> {
  const db = await openDatabase({ databaseUrl: database.url || undefined, dataDir });
  try {
    await db.rows(`update deployments set status = 'running' where id = '${deploymentId}'`);
  } finally {
    await db.close();
  }
}

/** The server's dashboard opened and an analytics app made in it: its app key. */
async function appKeyOn(server: ServerProcess, cookie: string, deploymentId: string): Promise<string> {
  expect((await callServer(server, 'POST', `/analytics/${deploymentId}/open`, {}, { cookie })).status).toBe(200);
  const app = await callServer(server, 'POST', `/analytics/${deploymentId}/apps`, { name: 'Crash app' }, { cookie });
  expect(app.status).toBe(201);
  return String(app.json?.payload.key);
}

/** Call `c`'s form body, the same bytes every time it is sent (so a resend is a retry). */
function callBody(appKey: string, c: number): string {
  const requests = Array.from({ length: REQUESTS }, (_, j) => ({
    device_id: `crash-${c}-${j}`,
    timestamp: String(1_760_000_000_000 + c * REQUESTS + j),
    begin_session: '1',
    events: Array.from({ length: EVENTS }, (_, k) => ({ key: `crash_${k}`, count: 1, segmentation: { call: String(c % 3) } })),
  }));
  return new URLSearchParams({ app_key: appKey, requests: JSON.stringify(requests) }).toString();
}

/** Sends a call; true when it was answered "Success", false when the connection died with the server. */
async function send(server: ServerProcess, body: string): Promise<boolean> {
  const res = await fetch(`${server.url}/i/bulk`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).catch(() => null);
  if (!res) return false;
  const text = await res.text().catch(() => null);
  if (text === null) return false;
  expect(res.status, text).toBe(200);
  return true;
}

describe('batched ingestion under SIGKILL', () => {
  it('stores every acknowledged event exactly once after a kill mid-run and the SDKs resending', async () => {
    const total = CALLERS * CALLS_PER_CALLER;
    const acknowledged = new Set<number>();
    let server = await start();
    const { deploymentId } = await orderServer(server);
    server.child.kill('SIGTERM');
    await server.ended;
    await markRunning(deploymentId);
    server = await start();
    const { cookie = '' } = await callServer(server, 'POST', '/auth/signin', ADMIN);
    const appKey = await appKeyOn(server, cookie, deploymentId);

    // Each caller sends its calls one after another until the server dies under it.
    const callers = Array.from({ length: CALLERS }, async (_, caller) => {
      for (let n = 0; n < CALLS_PER_CALLER; n += 1) {
        const c = caller * CALLS_PER_CALLER + n;
        if (!(await send(server, callBody(appKey, c)))) return;
        acknowledged.add(c);
      }
    });
    // Killed once some calls were answered: others are in their batches at that moment.
    while (acknowledged.size < CALLERS * 2) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    expect((await server.ended).signal).toBe('SIGKILL');
    await Promise.all(callers);
    const beforeKill = new Set(acknowledged);
    expect(beforeKill.size).toBeGreaterThan(0);
    expect(beforeKill.size).toBeLessThan(total);

    // Restarted on the same data: the unanswered calls are sent again, and the first few answered ones too (lost answers).
    server = await start();
    try {
      const resend = [...Array.from({ length: total }, (_, c) => c).filter((c) => !beforeKill.has(c)), ...[...beforeKill].slice(0, 3)];
      await Promise.all(resend.map(async (c) => expect(await send(server, callBody(appKey, c))).toBe(true)));
    } finally {
      server.child.kill('SIGTERM');
      await server.ended;
    }

    const db = await openDatabase({ databaseUrl: database.url || undefined, dataDir });
    try {
      const devices = await db.rows<{ device_id: string; raw: number }>(`select device_id, count(*)::int as raw from ${RAW_EVENTS} where device_id like 'crash-%' group by device_id`);
      expect(devices).toHaveLength(total * REQUESTS);
      expect(devices.every((d) => d.raw === EVENTS)).toBe(true);
      const [totals] = await db.rows<{ events: number; sessions: number; users: number }>(
        `select (select sum(count)::int from analytics_daily_events where segment = '' and event_key like 'crash_%') as events,
                (select sum(sessions)::int from analytics_daily_sessions) as sessions,
                (select count(*)::int from analytics_app_users where device_id like 'crash-%' and sessions = 1) as users`,
      );
      expect(totals).toEqual({ events: total * REQUESTS * EVENTS, sessions: total * REQUESTS, users: total * REQUESTS });
    } finally {
      await db.close();
    }
  }, 600_000);
});
