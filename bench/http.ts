/**
 * `npm run bench`: requests per second and p99 latency of the product's hot read endpoints,
 * each against a bare Fastify route that returns the same bytes with the same compression
 * (@fastify/compress, same threshold), measured in the same run. Every request accepts brotli
 * and gzip, as browsers do. Prints ratios; asserts nothing (machines differ, ratios travel).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import compress from '@fastify/compress';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pathToFileURL } from 'node:url';
import { planSchema } from '../src/domain/plans/schemas';
import { buildServer } from '../scripts/build-server';
import { adminCases } from './admin';
import { backupCase } from './backup';
import { ingestionCase } from './ingest';
import { benchPostgresUrl, onScratchPostgres } from './scratch';
import type * as Product from './product';

// The product as production runs it: compiled by esbuild, not transformed on the fly by tsx.
const product = (await import(pathToFileURL(await buildServer('dist-server/bench', { product: 'bench/product.ts' })).href)) as typeof Product;
const { buildApp, loadConfig, toJsonSchema, envelope } = product;

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN_DURATION_S = Number(process.env.BENCH_ADMIN_DURATION ?? 2);
const ACCEPT = { 'accept-encoding': 'br, gzip' };

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** A new idempotency key on every request: each one creates (POST /deployments). */
  freshKey?: boolean;
}

const json = async <T>(res: Response) => ((await res.json()) as { payload: T }).payload;

/** A realistic order for the pricing benchmark: the default paid plan with a few options, yearly. */
async function pricingTarget(url: string): Promise<Target> {
  const plans = await json<{ _id: string; code: string }[]>(await fetch(`${url}/api/v1/plans/public`));
  const conf = await json<{ regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] }>(await fetch(`${url}/api/v1/plans/configurables/public/gcp`));
  const feature = (code: string) => conf.features.find((f) => f.code === code)?._id;
  const body = {
    plan: plans.find((p) => p.code === 'v3.mau_1_000_gcp.base')?._id,
    planConfig: { region: conf.regions.find((r) => r.code === 'europe-west1')?._id, features: ['feature.funnels', 'domain.custom', 'retention.12m', 'backup.daily'].map(feature) },
    payment: { term: { cycle: 'year' } },
  };
  return { name: 'POST /api/v1/deployments/pricing', method: 'POST', path: '/api/v1/deployments/pricing', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/**
 * A signed-up user, signed in (sign-up itself signs nobody in): their session cookie. Their email
 * is marked verified in the database, as opening the mailed link would (unverified accounts reach
 * only the verify screen).
 */
async function benchUser(url: string, app: FastifyInstance): Promise<string> {
  const user = { email: 'bench@example.com', password: 'Tr1cky-Lantern' };
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  await post('/users', { firstName: 'Bench', lastName: 'Mark', ...user });
  await app.database.rows(`update users set email_verified_at = now() where email = '${user.email}'`);
  const res = await post('/auth/signin', user);
  const cookie = /beacon_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

/** GET /auth/me reads the session and the user's companies. */
const meTarget = (cookie: string): Target => ({ name: 'GET /api/v1/auth/me (session)', method: 'GET', path: '/api/v1/auth/me', headers: { cookie } });

/** POST /deployments with a new idempotency key each time: a free server ordered in the user's company. */
async function createTarget(url: string, cookie: string): Promise<Target> {
  const company = await json<{ _id: string; projects: { _id: string }[] }>(
    await fetch(`${url}/api/v1/companies`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'Bench Company' }) }),
  );
  const plans = await json<{ _id: string; code: string }[]>(await fetch(`${url}/api/v1/plans/public`));
  const conf = await json<Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]>>(await fetch(`${url}/api/v1/plans/configurables/public/gcp`));
  const pick = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id;
  const body = {
    name: 'Bench Server',
    plan: pick(plans, 'v3.mau_500_gcp.base'),
    paymentCycle: 'month',
    planConfig: { region: pick(conf.regions, 'us-central1'), size: pick(conf.sizes, 'mau_500'), features: ['domain.default', 'retention.6m', 'backup.daily'].map((c) => pick(conf.features, c)) },
    paymentVendor: 'free',
    company: company._id,
    project: company.projects[0]?._id,
    provider: 'gcp',
  };
  return { name: 'POST /api/v1/deployments (create)', method: 'POST', path: '/api/v1/deployments', body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie }, freshKey: true };
}

/**
 * A company with FLEET servers: one ordered through the API, the rest copied from it in SQL (with
 * their runtime, a completed task and this month's MAU), so the list reads what a big customer has.
 */
const FLEET = 1000;
async function fleetTargets(app: Awaited<ReturnType<typeof buildApp>>, url: string, cookie: string): Promise<Target[]> {
  const first = await createTarget(url, cookie);
  const created = await json<{ _id: string }>(await fetch(`${url}${first.path}`, { method: 'POST', body: first.body, headers: { ...first.headers, 'idempotency-key': randomUUID() } }));
  const body = JSON.parse(first.body ?? '{}') as { company: string };
  const c = body.company;
  const id = created._id;
  for (const statement of [
    `insert into deployments (name, provider_id, plan_id, plan_code, plan_config, payment_cycle, free, company_id, project_id, created_by, status)
       select 'Fleet ' || g, provider_id, plan_id, plan_code, plan_config, payment_cycle, free, company_id, project_id, created_by, 'running' from deployments, generate_series(2, ${FLEET}) g where id = '${id}'`,
    `insert into subscriptions (deployment_id, company_id, vendor, status, cycle, quote, current_period_start)
       select d.id, d.company_id, s.vendor, s.status, s.cycle, s.quote, s.current_period_start from deployments d, subscriptions s where s.deployment_id = '${id}' and d.company_id = '${c}' and d.id <> '${id}'`,
    `insert into deployment_runtime (deployment_id, machine_id, url, default_domain, ssl_state, health_state)
       select id, 'mc-' || id, 'https://' || id || '.fleet.example', id || '.fleet.example', 'active', 'healthy' from deployments where company_id = '${c}' on conflict do nothing`,
    `insert into deployment_tasks (deployment_id, type, status, progress) select id, 'provision', 'completed', 100 from deployments where company_id = '${c}' and id <> '${id}'`,
    `insert into mau_history (deployment_id, used, starts_at, ends_at) select id, 123, date_trunc('month', now()), date_trunc('month', now()) + interval '1 month' - interval '1 ms' from deployments where company_id = '${c}'`,
    // Statistics of the new rows, as autovacuum (PostgreSQL) or the hourly maintenance (PGlite) keeps them.
    'vacuum analyze',
  ])
    await app.database.rows(statement);
  return [
    { name: `GET /deployments (${FLEET} servers)`, method: 'GET', path: `/api/v1/deployments?company=${c}`, headers: { cookie } },
    // The list as the portal pages it: its first page of ten, sorted and counted in the database.
    { name: `GET /deployments first page (${FLEET})`, method: 'GET', path: `/api/v1/deployments?company=${c}&range=${encodeURIComponent('[0,9]')}`, headers: { cookie } },
    { name: 'GET /deployments/{id}/populated', method: 'GET', path: `/api/v1/deployments/${id}/populated`, headers: { cookie } },
  ];
}

let client = 0;
async function measure(url: string, target: Target, duration = DURATION_S) {
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: { ...ACCEPT, ...target.headers },
    connections: CONNECTIONS,
    duration,
    // /auth/me is rate limited per address (120 a minute): each request comes from another
    // address (the bench trusts x-forwarded-for), as many users' browsers would.
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`, ...(target.freshKey ? { 'idempotency-key': randomUUID() } : {}) },
        }),
      },
    ],
  });
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, mean: result.latency.mean };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-bench-'));
  // One trusted hop: the bench's x-forwarded-for plays many users' addresses. The API is measured
  // alone: the task worker (provisioning every server the create benchmark orders) is off.
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: undefined, TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '1000', WORKER_ENABLED: 'false' });
  // BENCH_ONLY=ingest: the ingestion case alone (profiling the pipeline without the other runs);
  // BENCH_ONLY=backup: the backup case alone.
  const only = process.env.BENCH_ONLY;
  if (only !== 'ingest' && only !== 'backup') {
    await readCases(config, 'PGlite');
    const databaseUrl = benchPostgresUrl();
    if (databaseUrl) await onScratchPostgres(databaseUrl, (url) => readCases({ ...config, DATABASE_URL: url }, 'PostgreSQL'));
  }
  if (!only || only === 'ingest') {
    // A fresh data directory for the ingestion case: its own server, sign-up and app.
    const ingestDir = mkdtempSync(join(tmpdir(), 'beacon-bench-ingest-'));
    await ingestionCase(buildApp, { ...config, DATA_DIR: ingestDir }, benchUser);
    rmSync(ingestDir, { recursive: true, force: true });
  }
  // Its own data directories too: a tenant of a million raw events, backed up and restored.
  if (!only || only === 'backup') await backupCase(product, config, benchUser);
  rmSync(dataDir, { recursive: true, force: true });
}

/** The hot reads, the 1,000-server company, the serialisation and the admin lists, on one database. */
async function readCases(config: ReturnType<typeof loadConfig>, database: string) {
  const app = await buildApp(config);
  const productUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`\n== on ${database}`);
  // BENCH_ONLY=admin: the admin lists alone.
  if (process.env.BENCH_ONLY === 'admin') {
    await adminCases(app, productUrl, (url, target) => measure(url, target, ADMIN_DURATION_S));
    await app.close();
    return;
  }
  const targets: Target[] = [
    { name: 'GET /api/v1/health', method: 'GET', path: '/api/v1/health' },
    { name: 'GET /api/v1/plans/public', method: 'GET', path: '/api/v1/plans/public' },
    await pricingTarget(productUrl),
  ];
  const cookie = await benchUser(productUrl, app);
  // BENCH_ONLY=fleet: health and the 1,000-server company's reads alone.
  if (process.env.BENCH_ONLY === 'fleet') targets.splice(1);
  else targets.push(meTarget(cookie), await createTarget(productUrl, cookie));
  targets.push(...(await fleetTargets(app, productUrl, cookie)));
  const rates = new Map<string, number>();

  console.log(`\nbench: ${DURATION_S}s per run, ${CONNECTIONS} connections, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  console.log('baseline = bare Fastify route sending the same bytes with the same compression\n');
  console.log(`${'endpoint'.padEnd(34)}${'bytes'.padStart(8)}${'req/s'.padStart(9)}${'base req/s'.padStart(12)}${'ratio'.padStart(7)}${'p99 ms'.padStart(8)}${'base p99'.padStart(10)}`);
  for (const target of targets) {
    const sample = await fetch(`${productUrl}${target.path}`, { method: target.method, body: target.body, headers: { ...target.headers, ...(target.freshKey ? { 'idempotency-key': randomUUID() } : {}) } });
    const bytes = await sample.text();
    const bare = Fastify();
    await bare.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
    bare.route({ method: target.method, url: target.path.split('?')[0] ?? target.path, handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(bytes) });
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

    const base = await measure(bareUrl, target);
    const ours = await measure(productUrl, target);
    await bare.close();
    rates.set(target.name, ours.rps);
    console.log(
      `${target.name.padEnd(34)}${String(bytes.length).padStart(8)}${ours.rps.toFixed(0).padStart(9)}${base.rps.toFixed(0).padStart(12)}${(ours.rps / base.rps).toFixed(2).padStart(7)}` +
        `${ours.p99.toFixed(1).padStart(8)}${base.p99.toFixed(1).padStart(10)}`,
    );
  }
  if (process.env.BENCH_ONLY === 'fleet') {
    await app.close();
    return;
  }
  const create = rates.get('POST /api/v1/deployments (create)') ?? 0;
  const pricing = rates.get('POST /api/v1/deployments/pricing') ?? 1;
  console.log(`\nPOST /deployments (idempotent create) against the pricing call: ${(create / pricing).toFixed(2)}`);
  await serialisationCase(productUrl);
  // Shorter runs: twenty admin cases at the full duration would make the bench long.
  await adminCases(app, productUrl, (url, target) => measure(url, target, ADMIN_DURATION_S));
  await app.close();
}

/**
 * What a declared answer schema buys: the plan catalogue, held in memory, answered by one route
 * that declares its schema (serialised by fast-json-stringify, as every product route is) and by
 * one that does not (JSON.stringify). Same process, same object, same bytes out.
 */
async function serialisationCase(productUrl: string) {
  const answer = (await (await fetch(`${productUrl}/api/v1/plans/public`)).json()) as unknown;
  const bare = Fastify();
  const declared = { 200: toJsonSchema(envelope(z.array(planSchema)), 'output') };
  bare.get('/with-schema', { schema: { response: declared } }, async () => answer);
  bare.get('/without-schema', async () => answer);
  const url = await bare.listen({ host: '127.0.0.1', port: 0 });
  const without = await measure(url, { name: 'without schema', method: 'GET', path: '/without-schema' });
  const withSchema = await measure(url, { name: 'with schema', method: 'GET', path: '/with-schema' });
  await bare.close();
  console.log(`\nserialisation of the plan catalogue (${JSON.stringify(answer).length} bytes): response schema vs JSON.stringify`);
  console.log(
    `${'with / without schema'.padEnd(34)}${withSchema.rps.toFixed(0).padStart(10)}${without.rps.toFixed(0).padStart(12)}${(withSchema.rps / without.rps).toFixed(2).padStart(8)}` +
      `${withSchema.p99.toFixed(1).padStart(9)}${without.p99.toFixed(1).padStart(10)}${(withSchema.p99 / Math.max(without.p99, 0.1)).toFixed(2).padStart(8)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
