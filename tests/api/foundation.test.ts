import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { users } from '../../server/db/schema';
import { noPayload, replies } from '../../server/routes/envelope';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT: '2048' });
  // A write route used only here, so that the refusals below are checked against a real write.
  // (Every API route declares its schemas, this one too: see plugins/routeSchemas.ts.)
  t.app.post('/api/v1/test-writes', { schema: { body: z.looseObject({}), response: replies(noPayload) } }, async (request) => {
    const body = request.body as { email: string };
    await t.app.database.db.insert(users).values({ email: body.email, firstName: 'A', lastName: 'B' });
    return { message: 'OK', payload: null };
  });
  await t.app.ready();
});
afterAll(() => t.close());

describe('health', () => {
  it('answers 200 in the envelope after pinging the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'OK', payload: { status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('the error envelope', () => {
  it('answers 404 with code and message for an unknown API route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No such API route: GET /api/v1/no-such-thing.', code: 'ROUTE_NOT_FOUND', payload: {} });
  });

  it('refuses malformed JSON with 400 and changes nothing', async () => {
    const before = await tableCounts(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test-writes', headers: { 'content-type': 'application/json' }, payload: '{"email": "a@b.c",' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.', payload: {} });
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('refuses a body over the limit with 413 and changes nothing', async () => {
    const before = await tableCounts(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test-writes',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: `${'x'.repeat(4096)}@example.com` }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', payload: {} });
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('hides the detail of an unexpected failure behind a generic 500 with an error id', async () => {
    // Second insert of the same email breaks the unique index: an unexpected database error.
    const send = () => t.app.inject({ method: 'POST', url: '/api/v1/test-writes', payload: { email: 'dup@example.com' } });
    expect((await send()).statusCode).toBe(200);
    const res = await send();
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe('INTERNAL');
    expect(body.payload.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.message).toContain(body.payload.errorId);
    expect(JSON.stringify(body)).not.toMatch(/unique|constraint|users_email/i);
  });

  it('sets security headers with a strict content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('in-flight requests at shutdown', () => {
  it('lets a write that started before close finish and persist', async () => {
    const slow = await createTestApp();
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      slow.app.post('/api/v1/slow-write', { schema: { body: z.looseObject({}).nullish(), response: replies(noPayload) } }, async () => {
        resolve();
        await new Promise<void>((r) => (release = r));
        await slow.app.database.db.insert(users).values({ email: 'late@example.com', firstName: 'L', lastName: 'W' });
        return { message: 'OK', payload: null };
      });
    });
    // Count the row as the app closes, before the database does.
    let rowsAtClose = -1;
    slow.app.addHook('onClose', async () => {
      rowsAtClose = (await slow.app.database.rows<{ n: number }>("select count(*)::int as n from users where email = 'late@example.com'"))[0]?.n ?? -1;
    });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    const address = slow.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const request = fetch(`http://127.0.0.1:${port}/api/v1/slow-write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await started;
    // Close the server while the request waits.
    const closing = slow.close();
    setTimeout(() => release(), 200);
    const res = await request;
    await closing;
    expect(res.status).toBe(200);
    expect(rowsAtClose).toBe(1);
  });
});
