import client from 'prom-client';
import type { Database } from './db/client';

/**
 * Figures an operator scrapes at GET /metrics (Prometheus text, prom-client). Counters that code
 * anywhere bumps (ingestion) live in one process-wide registry; what belongs to one app (its
 * request durations, its queue and pool) in the app's own, so tests building many apps never
 * register a metric twice. The default metrics bring process memory and event-loop lag.
 */
const shared = new client.Registry();
client.collectDefaultMetrics({ register: shared, prefix: 'beacon_' });

const ingestEvents = new client.Counter({
  name: 'beacon_ingest_events_total',
  help: 'Analytics events received by ingestion, by outcome (accepted: stored; dropped: refused by a limit)',
  labelNames: ['outcome'] as const,
  registers: [shared],
});
const ingestRequests = new client.Counter({
  name: 'beacon_ingest_requests_total',
  help: 'SDK requests answered by ingestion, by outcome (accepted, refused)',
  labelNames: ['outcome'] as const,
  registers: [shared],
});
const ingestBatch = new client.Histogram({
  name: 'beacon_ingest_batch_size',
  help: 'SDK requests written together in one ingestion batch',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [shared],
});

/** One SDK request's events: how many were stored and how many a limit dropped. */
export function recordIngestEvents(accepted: number, dropped: number): void {
  ingestRequests.inc({ outcome: 'accepted' });
  if (accepted) ingestEvents.inc({ outcome: 'accepted' }, accepted);
  if (dropped) ingestEvents.inc({ outcome: 'dropped' }, dropped);
}

/** An SDK request refused whole (unknown app, bad checksum, server not taking data). */
export function recordIngestRefused(): void {
  ingestRequests.inc({ outcome: 'refused' });
}

/** A batch of `size` SDK requests written together (the batch writer calls it once per batch). */
export function recordIngestBatch(size: number): void {
  ingestBatch.observe(size);
}

/** What the app's own metrics read at scrape time. */
export interface MetricsSources {
  database: Database;
  /** Jobs per queue and state (pg-boss's counts). */
  queueCounts(): Promise<{ name: string; queued: number; active: number; deferred: number; failed: number }[]>;
}

export interface AppMetrics {
  /** One answered HTTP request: its route pattern (never the raw URL: ids would explode the series). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  contentType: string;
  scrape(): Promise<string>;
}

export function createAppMetrics({ database, queueCounts }: MetricsSources): AppMetrics {
  const registry = new client.Registry();
  const http = new client.Histogram({
    name: 'beacon_http_request_duration_seconds',
    help: 'HTTP request durations, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new client.Gauge({
    name: 'beacon_queue_jobs',
    help: 'Task queue jobs by queue and state (failed: kept for inspection)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of await queueCounts()) {
        for (const state of ['queued', 'active', 'deferred', 'failed'] as const) this.set({ queue: q.name, state }, q[state]);
      }
    },
  });
  // node-postgres's pool: requests waiting for a free connection; PGlite's one connection: calls queued behind the running one.
  const pool = (database.db as unknown as { $client?: { waitingCount?: number; totalCount?: number; idleCount?: number } }).$client;
  new client.Gauge({
    name: 'beacon_db_pool_waiting',
    help: 'Database queries waiting for a connection: for a pooled one (PostgreSQL), behind the running statement (PGlite)',
    registers: [registry],
    collect() {
      this.set(database.kind === 'postgres' ? (pool?.waitingCount ?? 0) : Math.max(0, (database.pglite?.inFlight ?? 0) - 1));
    },
  });
  new client.Gauge({
    name: 'beacon_db_pool_connections',
    help: 'Pooled database connections, by state (PostgreSQL)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      if (database.kind !== 'postgres' || !pool) return;
      const total = pool.totalCount ?? 0;
      const idle = pool.idleCount ?? 0;
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'busy' }, total - idle);
    },
  });
  const merged = client.Registry.merge([shared, registry]);
  return {
    observeRequest: (method, route, status, seconds) => http.observe({ method, route, status_code: String(status) }, seconds),
    contentType: merged.contentType,
    scrape: () => merged.metrics(),
  };
}
