/**
 * Ingestion throughput for `npm run bench`: events per second through POST /i (form-encoded, as
 * the SDKs send a batch: 10 events with segmentation, a new device and timestamp per request so
 * no request is a retry), against a bare Fastify route that parses the same body and answers the
 * same `{"result":"Success"}`. On PGlite always; on PostgreSQL too when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { buildApp } from '../server/app';
import type { Config } from '../server/config';
import { bareBulk, BULK_LABEL, bulkRun } from './bulk';
import { benchPostgresUrl, onScratchPostgres } from './scratch';

const EVENTS_PER_REQUEST = 10;
/** Signs up and signs in the bench user on the app at `url`: their session cookie. */
export type SignIn = (url: string, app: Awaited<ReturnType<typeof buildApp>>) => Promise<string>;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** An analytics app on a free server of the signed-in bench user, marked running (the worker is off): its app key. */
export async function benchApp(app: Awaited<ReturnType<typeof buildApp>>, url: string, cookie: string): Promise<string> {
  const call = async <T>(method: string, path: string, body: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${url}/api/v1${path}`, { method, headers: { 'content-type': 'application/json', cookie, ...extra }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { payload: T }).payload;
  };
  const company = await call<{ _id: string; projects: { _id: string }[] }>('POST', '/companies', { name: 'Ingest Bench' });
  const plans = await (await fetch(`${url}/api/v1/plans/public`)).json() as { payload: { _id: string; code: string }[] };
  const conf = (await (await fetch(`${url}/api/v1/plans/configurables/public/gcp`)).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> };
  const pick = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id;
  const deployment = await call<{ _id: string }>(
    'POST',
    '/deployments',
    {
      name: 'Ingest Bench Server',
      plan: pick(plans.payload, 'v3.mau_500_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: pick(conf.payload.regions, 'us-central1'), size: pick(conf.payload.sizes, 'mau_500'), features: ['domain.default', 'retention.6m', 'backup.daily'].map((c) => pick(conf.payload.features, c)) },
      paymentVendor: 'free',
      company: company._id,
      project: company.projects[0]?._id,
      provider: 'gcp',
    },
    { 'idempotency-key': randomUUID() },
  );
  await app.database.rows(`update deployments set status = 'running' where id = '${deployment._id}'`);
  await call('POST', `/analytics/${deployment._id}/open`, {});
  return (await call<{ key: string }>('POST', `/analytics/${deployment._id}/apps`, { name: 'Bench app' })).key;
}

const events = JSON.stringify(Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({ key: `event_${i % 5}`, count: 1, sum: 2.5, segmentation: { plan: ['free', 'pro', 'team'][i % 3], platform: i % 2 ? 'ios' : 'android' } })));
let sequence = 0;
const body = (appKey: string) => new URLSearchParams({ app_key: appKey, device_id: `device-${sequence % 5000}`, timestamp: String(Date.now() * 1000 + sequence++), events }).toString();

async function rate(url: string, appKey: string): Promise<number> {
  const result = await autocannon({
    url: `${url}/i`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [{ setupRequest: (req) => ({ ...req, body: body(appKey) }) }],
  });
  if (result.non2xx || result.errors) throw new Error(`POST /i: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average * EVENTS_PER_REQUEST;
}

async function bareRate(appKey: string): Promise<number> {
  const bare = Fastify();
  bare.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, b, done) => done(null, Object.fromEntries(new URLSearchParams(b as string))));
  bare.post('/i', async () => ({ result: 'Success' }));
  const url = await bare.listen({ host: '127.0.0.1', port: 0 });
  const events = await rate(url, appKey);
  await bare.close();
  return events;
}

const storedEvents = async (app: Awaited<ReturnType<typeof buildApp>>) => {
  const [row] = await app.database.rows<{ n: number }>("select coalesce(sum(count), 0)::float8 as n from analytics_daily_events where segment = ''");
  return row?.n ?? 0;
};

/**
 * The product on one database, each run next to its bare run: the machine's speed drifts within
 * minutes (the bare rate moved by half between two runs of one hour), so a baseline measured
 * once for both databases made their ratios swing.
 */
async function onDatabase(build: typeof buildApp, label: string, config: Config, signIn: SignIn) {
  const app = await build(config);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const appKey = await benchApp(app, url, await signIn(url, app));
  const base = await bareRate('bench');
  const ours = await rate(url, appKey);
  const single = await storedEvents(app);
  console.log(`${`POST /i on ${label}`.padEnd(34)}${ours.toFixed(0).padStart(12)}${base.toFixed(0).padStart(12)}${(ours / base).toFixed(3).padStart(8)}   (${single} events stored)`);
  const bulkBase = await bareBulk();
  const bulk = await bulkRun(url, appKey);
  // Counted by the bulk case's own devices: /i requests still in flight when its run ended land too.
  const [row] = await app.database.rows<{ n: number }>("select coalesce(sum((e->>'count')::float8), 0)::float8 as n from analytics_raw_requests, jsonb_array_elements(events) e where device_id like 'bulk-%'");
  const stored = row?.n ?? 0;
  await app.close();
  console.log(
    `${`POST /i/bulk on ${label}`.padEnd(34)}${bulk.eventsPerSecond.toFixed(0).padStart(12)}${bulkBase.eventsPerSecond.toFixed(0).padStart(12)}${(bulk.eventsPerSecond / bulkBase.eventsPerSecond).toFixed(3).padStart(8)}` +
      `   health p50 ${bulk.healthP50.toFixed(1)} ms, p99 ${bulk.healthP99.toFixed(1)} ms; fairness p99/p50 ${bulk.fairness.toFixed(2)}; stored ${stored} = accepted ${bulk.accepted}: ${stored === bulk.accepted ? 'yes' : 'NO'}` +
      `   (bare: health p50 ${bulkBase.healthP50.toFixed(1)} ms, p99 ${bulkBase.healthP99.toFixed(1)} ms; fairness ${bulkBase.fairness.toFixed(2)})`,
  );
}

/**
 * Runs the ingestion case on PGlite (the config given) and, with DATABASE_URL, on a scratch
 * PostgreSQL database, with the product `build` makes (the compiled one, as production runs it).
 */
export async function ingestionCase(build: typeof buildApp, config: Config, signIn: SignIn) {
  console.log(`\ningestion: ${EVENTS_PER_REQUEST} events per request (/i/bulk: ${BULK_LABEL} a call), events per second against a bare route parsing the same body, run just before`);
  console.log(`${'endpoint'.padEnd(34)}${'events/s'.padStart(12)}${'base ev/s'.padStart(12)}${'ratio'.padStart(8)}`);
  await onDatabase(build, 'PGlite', { ...config, INGEST_RATE_LIMIT_PER_MINUTE: 10_000_000 }, signIn);
  const databaseUrl = benchPostgresUrl();
  if (databaseUrl) await onScratchPostgres(databaseUrl, (url) => onDatabase(build, 'PostgreSQL', { ...config, DATABASE_URL: url, INGEST_RATE_LIMIT_PER_MINUTE: 10_000_000 }, signIn));
}
