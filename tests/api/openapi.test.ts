import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySerializers } from '../../server/plugins/lazySerializers';
import { missingSchema } from '../../server/plugins/routeSchemas';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Paths = Record<string, Record<string, Operation>>;

const openapi = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json() as { openapi: string; paths: Paths };
};

describe('route schemas', () => {
  it('refuses to register an API route without its schemas', async () => {
    expect(missingSchema({ method: 'GET', url: '/api/v1/things', schema: {} })).toBe('response');
    expect(missingSchema({ method: 'GET', url: '/api/v1/things/:id', schema: { response: {} } })).toBe('params');
    expect(missingSchema({ method: 'POST', url: '/api/v1/things', schema: { response: {} } })).toBe('body');
    expect(missingSchema({ method: 'POST', url: '/api/v1/things', schema: { response: {}, body: {} } })).toBeNull();
    const app = (await createTestApp()).app;
    try {
      expect(() => app.get('/api/v1/undeclared', async () => ({ message: 'OK', payload: null }))).toThrow(/declares no response schema/);
    } finally {
      await app.close();
    }
  });

  it('documents every API route with its request parts and its answers', async () => {
    const { openapi: version, paths } = await openapi();
    expect(version).toBe('3.1.0');
    // (A route without schemas cannot even be registered, see above; the docs' own routes are hidden.)
    const documented = new Set(Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect(documented.size).toBeGreaterThan(35);
    for (const [key, op] of Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, o]) => [`${m.toUpperCase()} ${path}`, o] as const))) {
      const success = Object.keys(op.responses).filter((s) => /^2|^3/.test(s));
      expect(success.length, `${key} answers`).toBeGreaterThan(0);
      expect(op.responses['4XX'], `${key} error envelope`).toBeDefined();
      if (key.includes('{')) expect(op.parameters?.some((p) => p.in === 'path'), `${key} params`).toBe(true);
      if (/^(POST|PUT|PATCH) /.test(key)) expect(op.requestBody, `${key} body`).toBeDefined();
    }
    for (const expected of ['POST /api/v1/auth/signin', 'GET /api/v1/plans/public', 'POST /api/v1/deployments/pricing', 'GET /api/v1/admin/users', 'GET /api/v1/admin/users/export', 'PUT /api/v1/users/{id}', 'GET /api/v1/auth/unlock']) {
      expect(documented, expected).toContain(expected);
    }
  });

  it('describes the answer envelope of a route, and the request body from the same zod schema the form uses', async () => {
    const { paths } = await openapi();
    const signin = paths['/api/v1/auth/signin']?.post;
    const answer = signin?.responses['200']?.content?.['application/json']?.schema as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(Object.keys(answer.properties)).toEqual(['message', 'payload']);
    expect(Object.keys(answer.properties.payload?.properties ?? {})).toContain('mfaEnabled');
    const body = signin?.requestBody?.content['application/json'] as { schema: { properties: Record<string, unknown> } };
    expect(Object.keys(body.schema.properties)).toEqual(expect.arrayContaining(['email', 'password', 'authCode']));
  });

  it('answers a body refused by its route schema with the VALIDATION_FAILED envelope, translated per field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: { plan: '', planConfig: {}, payment: { term: { cycle: 'weekly' } } } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toMatch(/^Please check fields: /);
    expect(Object.keys(body.payload.errors)).toEqual(expect.arrayContaining(['plan', 'planConfig.region', 'payment.term.cycle']));
    expect(body.payload.errors.plan[0]).not.toMatch(/^validation\./);
  });

  it('compiles every answer schema of the product', async () => {
    await expect(t.app.warmSerializers()).resolves.toBeUndefined();
  });

  it('compiles an answer schema at its first use, and warming reports one that does not compile', async () => {
    const serializers = lazySerializers();
    const app = Fastify({ schemaController: { compilersFactory: serializers.compilersFactory } });
    app.get('/fine', { schema: { response: { 200: { type: 'object', properties: { kept: { type: 'string' } } } } } }, async () => ({ kept: 'yes', dropped: 'no' }));
    app.get('/broken', { schema: { response: { 200: { type: 'object', properties: { x: { $ref: '#/definitions/missing' } } } } } }, async () => ({ x: 1 }));
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/fine' })).json()).toEqual({ kept: 'yes' });
    expect((await app.inject({ method: 'GET', url: '/broken' })).statusCode).toBe(500);
    await expect(serializers.warm()).rejects.toThrow(/missing/);
    await app.close();
  });

  it('serialises only the declared fields of an answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(Object.keys(res.json().payload).sort()).toEqual(['database', 'status']);
  });
});

describe('the docs page', () => {
  it('is served with a CSP relaxed for that page only', async () => {
    const docs = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toContain('/api/v1/openapi.json');
    expect(docs.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/plans/public' });
    expect(api.headers['content-security-policy']).toContain("script-src 'self'");
    expect(api.headers['content-security-policy']).not.toContain("script-src 'self' 'unsafe-inline'");
  });

  it('sends the reader script and the address without its slash to the page (the reader loads at the first visit)', async () => {
    const [script, bare] = await Promise.all([t.app.inject({ method: 'GET', url: '/api/v1/docs/js/scalar.js' }), t.app.inject({ method: 'GET', url: '/api/v1/docs' })]);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body.length).toBeGreaterThan(1_000_000);
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/api/v1/docs/');
    expect(bare.headers['content-security-policy']).toContain("'unsafe-inline'");
  });
});
