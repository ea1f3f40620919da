import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/domain/errors';
import { analyticsServer, createAnalyticsApp } from '../support/analytics';
import { changeBody, loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Request groups the fuzz walk (fuzz.test.ts) found answering 500, each closed at its cause.
let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let cat: Awaited<ReturnType<typeof loadCatalogue>>;
let appId = '';
let userId = '';
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  server = await analyticsServer(t.app, cat, 'owner@example.com');
  appId = (await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie))._id;
  userId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: server.owner.cookie } })).json<{ payload: { _id: string } }>().payload._id;
});
afterAll(() => t.close());

const BOUNDARY = '----fuzz0boundary';
const part = (name: string, value: string, extra = '') => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;

/** Bodies that say they are multipart and are not (or not quite). */
const BROKEN: [string, string, string][] = [
  ['no boundary', 'multipart/form-data', part('name', 'x')],
  ['another boundary', `multipart/form-data; boundary=${BOUNDARY}`, `--other\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--other--\r\n`],
  ['cut off inside a part', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf`],
  ['cut off inside a file', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`],
  ['a part without headers', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`],
  ['a malformed part header', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`],
  ['a __proto__ field', `multipart/form-data; boundary=${BOUNDARY}`, `${part('__proto__', '{"isAdmin":true}')}--${BOUNDARY}--\r\n`],
  ['only the closing line', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}--`],
  ['an empty body', `multipart/form-data; boundary=${BOUNDARY}`, ''],
];

async function expectRefused(res: { statusCode: number; body: string }, codes: ErrorCode[], what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
  const body = JSON.parse(res.body) as { code: ErrorCode; message: string; payload: object };
  expect(codes, `${what}: ${res.body}`).toContain(body.code);
  expect(typeof body.message).toBe('string');
}

describe('broken multipart bodies', () => {
  it('are refused with a 4xx envelope on every form that takes a file, from members and strangers, and change nothing', async () => {
    const targets = [
      { method: 'PUT' as const, url: () => `/api/v1/users/${userId}`, cookie: server.owner.cookie },
      { method: 'PUT' as const, url: () => `/api/v1/companies/${server.owner.companyId}`, cookie: server.owner.cookie },
      { method: 'POST' as const, url: () => `/api/v1/analytics/${server.deploymentId}/apps/${appId}/icon`, cookie: server.owner.cookie },
      // A stranger is refused before the body is read at all.
      { method: 'POST' as const, url: () => `/api/v1/analytics/${server.deploymentId}/apps/${appId}/icon`, cookie: '' },
    ];
    const before = await tableCounts(t.app);
    for (const target of targets) {
      for (const [what, contentType, payload] of BROKEN) {
        const res = await t.app.inject({ method: target.method, url: target.url(), headers: { 'content-type': contentType, ...(target.cookie ? { cookie: target.cookie } : {}) }, payload });
        // An empty or closing-only body is a form without fields: the handler's own validation refuses it.
        await expectRefused(res, target.cookie ? ['MULTIPART_INVALID', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE'] : ['UNAUTHORIZED'], `${target.method} ${target.url()} ${what}`);
      }
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('PUT /deployments/{id} with option ids that are not uuids', () => {
  it('is refused by the schema (400 on planConfig.features) instead of a database error, and changes nothing', async () => {
    const before = await tableCounts(t.app);
    for (const features of [['not-a-uuid'], ['1'], [`${cat.feature('domain.default')}x`], ['00000000-0000-0000-0000-00000000000g']]) {
      const body = changeBody(cat, server.owner, { planCode: 'v3.mau_500_gcp.base', paymentVendor: 'free', planConfig: { region: cat.region('us-central1'), features } });
      const res = await t.app.inject({ method: 'PUT', url: `/api/v1/deployments/${server.deploymentId}`, headers: { cookie: server.owner.cookie }, payload: body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', payload: { errors: { 'planConfig.features.0': [expect.any(String)] } } });
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
