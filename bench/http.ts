/**
 * `npm run bench`: requests per second and p99 latency of the product's hot read endpoints,
 * each against a bare Fastify route that returns the same bytes with the same compression
 * (@fastify/compress, same threshold), measured in the same run. Every request accepts brotli
 * and gzip, as browsers do. Prints ratios; asserts nothing (machines differ, ratios travel).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import compress from '@fastify/compress';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ACCEPT = { 'accept-encoding': 'br, gzip' };

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
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

/** A signed-up user's session: GET /auth/me reads the session and the user's companies. */
async function meTarget(url: string): Promise<Target> {
  const res = await fetch(`${url}/api/v1/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Bench', lastName: 'Mark', email: 'bench@example.com', password: 'Tr1cky-Lantern' }),
  });
  const cookie = /beacon_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`sign-up failed: ${res.status}`);
  return { name: 'GET /api/v1/auth/me (session)', method: 'GET', path: '/api/v1/auth/me', headers: { cookie } };
}

let client = 0;
async function measure(url: string, target: Target) {
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: { ...ACCEPT, ...target.headers },
    connections: CONNECTIONS,
    duration: DURATION_S,
    // /auth/me is rate limited per address (120 a minute): each request comes from another
    // address (the bench trusts x-forwarded-for), as many users' browsers would.
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}` } }) }],
  });
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-bench-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: undefined, TRUST_PROXY: 'true', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  const app = await buildApp(config);
  const productUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const targets: Target[] = [
    { name: 'GET /api/v1/health', method: 'GET', path: '/api/v1/health' },
    { name: 'GET /api/v1/plans/public', method: 'GET', path: '/api/v1/plans/public' },
    await pricingTarget(productUrl),
    await meTarget(productUrl),
  ];

  console.log(`\nbench: ${DURATION_S}s per run, ${CONNECTIONS} connections, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  console.log('baseline = bare Fastify route sending the same bytes with the same compression\n');
  console.log(`${'endpoint'.padEnd(34)}${'bytes'.padStart(8)}${'req/s'.padStart(9)}${'base req/s'.padStart(12)}${'ratio'.padStart(7)}${'p99 ms'.padStart(8)}${'base p99'.padStart(10)}`);
  for (const target of targets) {
    const sample = await fetch(`${productUrl}${target.path}`, { method: target.method, body: target.body, headers: target.headers });
    const bytes = await sample.text();
    const bare = Fastify();
    await bare.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
    bare.route({ method: target.method, url: target.path, handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(bytes) });
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

    const base = await measure(bareUrl, target);
    const ours = await measure(productUrl, target);
    await bare.close();
    console.log(
      `${target.name.padEnd(34)}${String(bytes.length).padStart(8)}${ours.rps.toFixed(0).padStart(9)}${base.rps.toFixed(0).padStart(12)}${(ours.rps / base.rps).toFixed(2).padStart(7)}` +
        `${ours.p99.toFixed(1).padStart(8)}${base.p99.toFixed(1).padStart(10)}`,
    );
  }
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
