/**
 * The bulk ingestion case of `npm run bench`: CALLERS callers each sending POST /i/bulk calls of
 * REQUESTS requests × 10 events (a distinct device per request, as many SDKs flushing at once),
 * back to back for the run's duration, while one more caller polls GET /api/v1/health. Prints
 * events per second against a bare Fastify route parsing the same body, the health latency under
 * that load, the fairness of the calls (p99 / p50 of a call's time) and whether the events stored
 * equal the events accepted.
 */
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';

const CALLERS = 8;
const REQUESTS = 100;
const EVENTS = 10;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);

export interface BulkResult {
  eventsPerSecond: number;
  accepted: number;
  fairness: number;
  healthP50: number;
  healthP99: number;
}

/**
 * The callers and the health poller, as plain JavaScript run in a worker thread: on the server's
 * own thread the client's work would show as the server's latency.
 */
const CLIENT = `
const { parentPort, workerData: w } = require('node:worker_threads');
const events = Array.from({ length: w.events }, (_, i) => ({ key: 'event_' + (i % 5), count: 1, sum: 2.5, segmentation: { plan: ['free', 'pro', 'team'][i % 3], platform: i % 2 ? 'ios' : 'android' } }));
let calls = 0;
// Every request a new device and timestamp, so none is a retry.
const body = () => {
  const call = calls++;
  const now = Date.now() * 1000;
  const requests = Array.from({ length: w.requests }, (_, j) => ({ device_id: 'bulk-' + call + '-' + j, timestamp: String(now + j), begin_session: '1', events }));
  return new URLSearchParams({ app_key: w.appKey, requests: JSON.stringify(requests) }).toString();
};
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
(async () => {
  const until = Date.now() + w.durationS * 1000;
  const callTimes = [], health = [];
  let accepted = 0;
  const started = performance.now();
  const caller = async () => {
    while (Date.now() < until) {
      const b = body();
      const t0 = performance.now();
      const res = await fetch(w.url + '/i/bulk', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: b });
      const text = await res.text();
      if (res.status !== 200) throw new Error('POST /i/bulk: ' + res.status + ' ' + text);
      callTimes.push(performance.now() - t0);
      accepted += w.requests * w.events;
    }
  };
  const poller = async () => {
    while (Date.now() < until) {
      const t0 = performance.now();
      await (await fetch(w.url + '/api/v1/health')).text();
      health.push(performance.now() - t0);
      // A load balancer's pace, not a flood: the poller must not be the load.
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([...Array.from({ length: w.callers }, caller), poller()]);
  const elapsed = (performance.now() - started) / 1000;
  callTimes.sort((a, b) => a - b);
  health.sort((a, b) => a - b);
  parentPort.postMessage({ eventsPerSecond: accepted / elapsed, accepted, fairness: pct(callTimes, 99) / Math.max(pct(callTimes, 50), 0.001), healthP50: pct(health, 50), healthP99: pct(health, 99) });
})().catch((err) => { throw err; });
`;

/** Runs the callers and the health poller against `url` for the run's duration. */
export function bulkRun(url: string, appKey: string): Promise<BulkResult> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { url, appKey, durationS: DURATION_S, callers: CALLERS, requests: REQUESTS, events: EVENTS } });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: BulkResult) => resolve(result));
    worker.once('error', reject);
  });
}

/** The same callers against a bare Fastify route that parses the same body and answers the same. */
export async function bareBulk(): Promise<BulkResult> {
  const bare = Fastify();
  bare.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, b, done) => {
    const params = Object.fromEntries(new URLSearchParams(b as string));
    done(null, { ...params, requests: JSON.parse(params.requests ?? '[]') as unknown });
  });
  bare.post('/i/bulk', async () => ({ result: 'Success' }));
  bare.get('/api/v1/health', async () => ({ message: 'ok', payload: { status: 'ok' } }));
  const url = await bare.listen({ host: '127.0.0.1', port: 0 });
  const result = await bulkRun(url, 'bench');
  await bare.close();
  return result;
}

export const BULK_LABEL = `${CALLERS} callers × ${REQUESTS} requests × ${EVENTS} events`;
