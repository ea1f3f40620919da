/**
 * `npm run bench`: requests per second and p99 latency of the product's hot read endpoints,
 * each against a bare Fastify route that returns the same bytes, measured in the same run.
 * Prints ratios; asserts nothing (machines differ, ratios travel).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { z } from 'zod';
import { planSchema } from '../src/domain/schemas/plans';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { toJsonSchema } from '../server/plugins/routeSchemas';
import { envelope } from '../server/routes/envelope';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}
const TARGETS: Target[] = [
  { name: 'GET /api/v1/health', method: 'GET', path: '/api/v1/health' },
  { name: 'GET /api/v1/plans/public', method: 'GET', path: '/api/v1/plans/public' },
];

/** A realistic order for the pricing benchmark: the default paid plan with a few options, yearly. */
async function pricingTarget(url: string): Promise<Target> {
  const plans = ((await (await fetch(`${url}/api/v1/plans/public`)).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await fetch(`${url}/api/v1/plans/configurables/public/gcp`)).json()) as {
    payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] };
  }).payload;
  const feature = (code: string) => conf.features.find((f) => f.code === code)?._id;
  const body = {
    plan: plans.find((p) => p.code === 'v3.mau_1_000_gcp.base')?._id,
    planConfig: { region: conf.regions.find((r) => r.code === 'europe-west1')?._id, features: ['feature.funnels', 'domain.custom', 'retention.12m', 'backup.daily'].map(feature) },
    payment: { term: { cycle: 'year' } },
  };
  return { name: 'POST /api/v1/deployments/pricing', method: 'POST', path: '/api/v1/deployments/pricing', body: JSON.stringify(body) };
}

async function measure(url: string, target: Target) {
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: target.body ? { 'content-type': 'application/json' } : {},
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-bench-'));
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: undefined });
  const app = await buildApp(config);
  const productUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  TARGETS.push(await pricingTarget(productUrl));

  console.log(`\nbench: ${DURATION_S}s per run, ${CONNECTIONS} connections; baseline = bare Fastify route sending the same bytes\n`);
  console.log(`${'endpoint'.padEnd(34)}${'req/s'.padStart(10)}${'base req/s'.padStart(12)}${'ratio'.padStart(8)}${'p99 ms'.padStart(9)}${'base p99'.padStart(10)}${'ratio'.padStart(8)}`);
  for (const target of TARGETS) {
    const sample = await fetch(`${productUrl}${target.path}`, { method: target.method, body: target.body, headers: target.body ? { 'content-type': 'application/json' } : {} });
    const bytes = await sample.text();
    const bare = Fastify();
    bare.route({ method: target.method, url: target.path, handler: async (_req, reply) => reply.type('application/json; charset=utf-8').send(bytes) });
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

    const base = await measure(bareUrl, target);
    const ours = await measure(productUrl, target);
    await bare.close();
    console.log(
      `${target.name.padEnd(34)}${ours.rps.toFixed(0).padStart(10)}${base.rps.toFixed(0).padStart(12)}${(ours.rps / base.rps).toFixed(2).padStart(8)}` +
        `${ours.p99.toFixed(1).padStart(9)}${base.p99.toFixed(1).padStart(10)}${(ours.p99 / Math.max(base.p99, 0.1)).toFixed(2).padStart(8)}`,
    );
  }
  await serialisationCase(productUrl);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
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
