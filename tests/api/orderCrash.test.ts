import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { openDatabase } from '../../server/db/client';
import { callServer, scratchDatabase, startServer, type ServerProcess } from '../support/serverProcess';

/**
 * Orders survive crashes: the compiled server is SIGKILLed at random moments while 50 orders with
 * idempotency keys are being submitted, then restarted, and every order is retried with its key
 * until each has an answer. In the end every key maps to exactly one deployment: none lost, none
 * doubled. On PGlite on disk, or on PostgreSQL when the suite runs with DATABASE_URL.
 */
const ORDERS = 50;
const KILLED_ROUNDS = 4;
const ADMIN = { email: 'crash-admin@example.com', password: 'Crash#Admin-2026' };

const root = mkdtempSync(join(tmpdir(), 'beacon-crash-'));
const dataDir = join(root, 'data');
const outdir = join('node_modules', '.cache', `beacon-server-${randomBytes(4).toString('hex')}`);
let serverFile = '';
let database: { url: string; drop: () => Promise<void> } = { url: '', drop: async () => undefined };

beforeAll(async () => {
  serverFile = await buildServer(outdir);
  database = await scratchDatabase('beacon_crash');
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  await database.drop();
});

const start = () => startServer({ serverFile, databaseUrl: database.url, dataDir, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Setup {
  cookie: string;
  bodies: Record<string, unknown>[];
}

/** The admin's session, a company with its project, and 50 orders (free and paid) for it. */
async function setUp(server: ServerProcess): Promise<Setup> {
  const signIn = await callServer(server, 'POST', '/auth/signin', ADMIN);
  expect(signIn.status).toBe(200);
  const cookie = signIn.cookie ?? '';
  const company = await callServer(server, 'POST', '/companies', { name: 'Crash Test Dummies' }, { cookie });
  expect(company.status).toBe(201);
  const { _id: companyId, projects } = company.json?.payload as { _id: string; projects: { _id: string }[] };
  const plans = (await callServer(server, 'GET', '/plans/public')).json?.payload as unknown as { _id: string; code: string }[];
  const conf = (await callServer(server, 'GET', '/plans/configurables/public/gcp')).json?.payload as unknown as Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]>;
  const pick = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id;
  const bodies = Array.from({ length: ORDERS }, (_, i) => {
    const free = i % 3 === 0;
    return {
      name: `Crash ${i}`,
      plan: pick(plans, free ? 'v3.mau_500_gcp.base' : 'v3.mau_1_000_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: pick(conf.regions, 'us-central1'), size: pick(conf.sizes, 'mau_500'), features: [pick(conf.features, 'domain.default'), pick(conf.features, 'retention.6m'), pick(conf.features, 'backup.daily')] },
      paymentVendor: free ? 'free' : 'paddle',
      company: companyId,
      project: projects[0]?._id,
      provider: 'gcp',
    };
  });
  return { cookie, bodies };
}

describe('orders under crashes', () => {
  it(`loses and doubles none of ${ORDERS} keyed orders while the server is killed and restarted`, async () => {
    const keys = Array.from({ length: ORDERS }, () => randomUUID());
    const answered = new Map<string, string>();
    let interrupted = 0;
    let setup: Setup | null = null;
    for (let round = 0; answered.size < ORDERS; round += 1) {
      expect(round, `still unanswered after ${round} rounds`).toBeLessThan(KILLED_ROUNDS + 6);
      const server = await start();
      setup ??= await setUp(server);
      const { cookie, bodies } = setup;
      const submissions = keys.map(async (key, i) => {
        if (answered.has(key)) return;
        await sleep((i * 7) % 120);
        const res = await callServer(server, 'POST', '/deployments', bodies[i], { cookie, 'idempotency-key': key }).catch(() => null);
        // The connection died with the server, or (409) the key is still being worked on: retried next round.
        if (!res || res.status === 409) {
          interrupted += 1;
          return;
        }
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        const id = String(res.json?.payload._id);
        // A replay must name the same deployment as the first answer.
        expect(answered.get(key) ?? id).toBe(id);
        answered.set(key, id);
      });
      if (round < KILLED_ROUNDS) {
        await sleep(80 + Math.floor(Math.random() * 400));
        server.child.kill('SIGKILL');
        await server.ended;
        await Promise.all(submissions);
      } else {
        await Promise.all(submissions);
        server.child.kill('SIGTERM');
        await server.ended;
      }
    }

    // The kills did land while orders were in flight.
    expect(interrupted).toBeGreaterThan(0);

    // Every key answered once more, after all the restarts, with the same deployment.
    const server = await start();
    try {
      const { cookie, bodies } = setup ?? (await setUp(server));
      for (const [i, key] of keys.entries()) {
        const replay = await callServer(server, 'POST', '/deployments', bodies[i], { cookie, 'idempotency-key': key });
        expect(replay.status).toBe(201);
        expect(replay.json?.payload._id).toBe(answered.get(key));
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.ended;
    }

    // And the database holds exactly one deployment (with its subscription) per order.
    const db = await openDatabase({ databaseUrl: database.url || undefined, dataDir });
    try {
      const rows = await db.rows<{ name: string; n: number; subs: number }>(
        `select d.name, count(*)::int as n, (select count(*)::int from subscriptions s where s.deployment_id = any(array_agg(d.id))) as subs from deployments d where d.name like 'Crash %' group by d.name`,
      );
      expect(rows).toHaveLength(ORDERS);
      expect(rows.every((r) => r.n === 1 && r.subs === 1)).toBe(true);
      const ids = await db.rows<{ id: string }>(`select id from deployments where name like 'Crash %'`);
      expect(new Set(ids.map((r) => r.id))).toEqual(new Set(answered.values()));
    } finally {
      await db.close();
    }
  }, 600_000);
});
