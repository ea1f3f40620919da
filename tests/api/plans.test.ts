import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../../server/db/seed';
import type { PlanDto } from '../../src/domain/plans/schemas';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function publicPlans(): Promise<PlanDto[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/plans/public' });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ message: string; payload: PlanDto[] }>();
  expect(body.message).toBe('OK');
  return body.payload;
}

describe('GET /plans/public', () => {
  it('lists the seeded plans by priority, free tier first and the default paid plan second', async () => {
    const plans = await publicPlans();
    const codes = plans.map((p) => p.code);
    expect(codes[0]).toBe('v3.mau_500_gcp.base');
    expect(codes[1]).toBe('v3.mau_1_000_gcp.base');
    const priorities = plans.map((p) => p.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(plans.every((p) => p.status === 'active')).toBe(true);
  });

  it('speaks the spec shapes: _id, decimal-string prices, regions and features with refId and status', async () => {
    const [free, paid] = await publicPlans();
    expect(free?.basePricing.month.price).toEqual({ amount: '0.00', currency: 'USD' });
    expect(free?.kind).toBe('free');
    expect(paid?.basePricing.month.price.amount).toMatch(/^\d+\.\d{2}$/);
    expect(paid?.kind).toBe('paid');
    expect(paid?._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(paid?.regions.length).toBeGreaterThan(1);
    for (const option of [...(paid?.regions ?? []), ...(paid?.features ?? [])]) {
      expect(option.refId).toMatch(/^[0-9a-f-]{36}$/);
      expect(['available', 'not_available', 'coming_soon']).toContain(option.status);
      expect(option.pricing.month.price.amount).toMatch(/^\d+\.\d{2}$/);
    }
    // Free plans cannot change region: exactly one region is available on the free tier.
    expect(free?.regions.filter((r) => r.status === 'available')).toHaveLength(1);
  });

  it('leaves out inactive plans', async () => {
    await t.app.database.rows("update plans set status = 'inactive' where code = 'v3.mau_5_000_gcp.base'");
    const codes = (await publicPlans()).map((p) => p.code);
    expect(codes).not.toContain('v3.mau_5_000_gcp.base');
    await t.app.database.rows("update plans set status = 'active' where code = 'v3.mau_5_000_gcp.base'");
  });
});

describe('the catalogue seed', () => {
  it('is idempotent and keeps what admins changed', async () => {
    await t.app.database.rows("update plans set name = 'Renamed' where code = 'v3.mau_1_000_gcp.base'");
    const before = await tableCounts(t.app);
    await seedCatalogue(t.app.database.db);
    expect(await tableCounts(t.app)).toEqual(before);
    const plans = await publicPlans();
    expect(plans.find((p) => p.code === 'v3.mau_1_000_gcp.base')?.name).toBe('Renamed');
  });
});

describe('the public catalogue as a cached answer', () => {
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('answers with an ETag and a short public cache, and 304 with no body when the browser has it', async () => {
    for (const url of ['/api/v1/plans/public', '/api/v1/plans/configurables/public/gcp']) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await get(url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    }
  });

  it('sends brotli or gzip when accepted, and the bytes decompress to the same answer', async () => {
    const plain = await get('/api/v1/plans/public');
    const br = await get('/api/v1/plans/public', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/api/v1/plans/public', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
  });

  it('changes its ETag and content when the catalogue changes', async () => {
    const before = await get('/api/v1/plans/public');
    await t.app.database.rows("update plans set name = 'Changed Plan' where code = 'v3.mau_1_000_gcp.base'");
    const after = await get('/api/v1/plans/public', { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json<{ payload: PlanDto[] }>().payload.find((p) => p.code === 'v3.mau_1_000_gcp.base')?.name).toBe('Changed Plan');
  });

  it('is invalidated by seeding', async () => {
    const before = await get('/api/v1/plans/public');
    await t.app.database.rows("update plans set name = 'Seeded Over' where code = 'v3.mau_1_000_gcp.base'");
    await seedCatalogue(t.app.database.db);
    const after = await get('/api/v1/plans/public');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('health', () => {
  it('answers liveness from memory and readiness after asking the database', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(live.json()).toMatchObject({ payload: { status: 'ok' } });
    const ready = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ message: 'OK', payload: { status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' } });
  });
});
