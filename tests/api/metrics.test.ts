import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, hit } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

const TOKEN = 'scrape-token-0123456789';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};
/** The value of one sample line (`name{labels} value`), 0 when the series is not there yet. */
const sample = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('GET /metrics', () => {
  it('refuses a missing or wrong bearer token with the 401 envelope, changing nothing', async () => {
    const before = await tableCounts(t.app);
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('beacon_');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('answers the process, queue and pool figures in Prometheus text', async () => {
    const body = await scrape();
    expect(body).toContain('# TYPE beacon_process_resident_memory_bytes gauge');
    expect(body).toContain('# TYPE beacon_nodejs_eventloop_lag_seconds gauge');
    expect(body).toMatch(/^beacon_queue_jobs\{queue="deployment-tasks",state="queued"\} \d+$/m);
    expect(body).toMatch(/^beacon_queue_jobs\{queue="deployment-tasks",state="failed"\} \d+$/m);
    expect(body).toMatch(/^beacon_db_pool_waiting \d+$/m);
  });

  it('moves the request-duration and ingestion counters', async () => {
    const route = 'beacon_http_request_duration_seconds_count{method="GET",route="/api/v1/health",status_code="200"}';
    const accepted = 'beacon_ingest_events_total{outcome="accepted"}';
    const refused = 'beacon_ingest_requests_total{outcome="refused"}';
    const batches = 'beacon_ingest_batch_size_count';
    const before = await scrape();

    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    const cat = await loadCatalogue(t.app);
    const server = await analyticsServer(t.app, cat, 'metrics-owner@example.com');
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
    const events = [{ key: 'opened', count: 1 }, { key: 'paid', count: 1 }, { key: '[CLY]_view', count: 1, segmentation: { name: 'home' } }];
    expect((await hit(t.app, { app_key: app.key, device_id: 'm1', events }, 'POST')).json()).toEqual({ result: 'Success' });
    expect((await hit(t.app, { app_key: 'no-such-app', device_id: 'm1' })).statusCode).toBe(400);

    const after = await scrape();
    expect(sample(after, route) - sample(before, route)).toBe(2);
    expect(sample(after, accepted) - sample(before, accepted)).toBe(3);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    // The accepted request brought new event keys, so it was written alone: one batch of one.
    expect(sample(after, batches) - sample(before, batches)).toBe(1);
    // By route pattern, never by raw URL: no id ever becomes a series.
    expect(after).not.toContain(server.deploymentId);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers exactly as an unknown route does: the same status, headers and envelope, its own method and url', async () => {
    const bare = await createTestApp();
    try {
      const before = await tableCounts(bare.app);
      const headers = { authorization: 'Bearer anything-at-all-here' };
      const res = await bare.app.inject({ method: 'GET', url: '/metrics?x=1', headers });
      const unknown = await bare.app.inject({ method: 'GET', url: '/metricz?x=1', headers });
      expect(unknown.statusCode).toBe(404);
      expect(res.statusCode).toBe(unknown.statusCode);
      expect(res.body).toBe(unknown.body.replace('/metricz', '/metrics'));
      expect(res.json()).toEqual({ message: 'No such API route: GET /metrics.', code: 'ROUTE_NOT_FOUND', payload: {} });
      // Byte for byte: "/metricz" is as long as "/metrics"; only the clock may differ.
      expect({ ...res.headers, date: '' }).toEqual({ ...unknown.headers, date: '' });
      expect(res.body).not.toContain('beacon_');
      expect(await tableCounts(bare.app)).toEqual(before);
    } finally {
      await bare.close();
    }
  });
});
