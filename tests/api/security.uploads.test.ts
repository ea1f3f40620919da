import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/domain/errors';
import { analyticsServer, createAnalyticsApp } from '../support/analytics';
import { TINY_PNG } from '../support/multipart';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Uploads whose multipart body ends before its closing boundary are answered 400 MULTIPART_INVALID
 * as soon as the body ends, on every route that takes a file, and a caller who may not make the
 * change is refused before the body is read at all.
 */
let t: TestApp;
let a: Awaited<ReturnType<typeof analyticsServer>>;
let b: Awaited<ReturnType<typeof analyticsServer>>;
let appA = '';
let appB = '';
let userB = '';
beforeAll(async () => {
  // A short request bound, so the stalled body below is cut off quickly (inject is not concerned).
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' });
  const cat = await loadCatalogue(t.app);
  a = await analyticsServer(t.app, cat, 'uploads-a@example.com');
  b = await analyticsServer(t.app, cat, 'uploads-b@example.com');
  appA = (await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'App of A' }))._id;
  appB = (await createAnalyticsApp(t.app, b.deploymentId, b.owner.cookie, { name: 'App of B' }))._id;
  const me = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).json<{ payload: { _id: string } }>().payload._id;
  userB = await me(b.owner.cookie);
});
afterAll(() => t.close());

const BOUNDARY = '----beacon-uploads';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;

/** The three ways a body ends early: no closing boundary, inside a part's headers, inside the file's bytes. */
function truncatedBodies(fileField: string, fields: Record<string, string>): [string, Buffer][] {
  const text = Object.entries(fields).map(([k, v]) => field(k, v)).join('');
  return [
    ['without its closing boundary', Buffer.concat([Buffer.from(text + fileHead(fileField)), TINY_PNG, Buffer.from('\r\n')])],
    ['inside a part header', Buffer.from(`${text}--${BOUNDARY}\r\nContent-Disposition: form-da`)],
    ['inside the file data', Buffer.concat([Buffer.from(text + fileHead(fileField)), TINY_PNG.subarray(0, 20)])],
  ];
}

interface Target {
  what: string;
  method: 'PUT' | 'POST';
  url: () => string;
  fileField: string;
  fields: Record<string, string>;
  /** What the upload would change, read back. */
  state: () => Promise<unknown>;
}

const one = async (sql: string) => (await t.app.database.rows<Record<string, unknown>>(sql))[0];
const TARGETS: Target[] = [
  { what: 'profile picture', method: 'PUT', url: () => `/api/v1/users/${userB}`, fileField: 'uploadPicture', fields: { firstName: 'Mallory', designation: 'dev' }, state: () => one(`select first_name, picture_file_id from users where id = '${userB}'`) },
  { what: 'company logo', method: 'PUT', url: () => `/api/v1/companies/${b.owner.companyId}`, fileField: 'uploadLogo', fields: { name: 'Renamed' }, state: () => one(`select name, logo_file_id from companies where id = '${b.owner.companyId}'`) },
  { what: 'app icon', method: 'POST', url: () => `/api/v1/analytics/${b.deploymentId}/apps/${appB}/icon`, fileField: 'icon', fields: {}, state: () => one(`select icon_file_id, updated_at from analytics_apps where id = '${appB}'`) },
];

function expectRefusal(res: { statusCode: number; body: string }, status: number, code: ErrorCode, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
  expect(JSON.parse(res.body), what).toMatchObject({ code, message: expect.any(String), payload: expect.any(Object) });
}

describe('a multipart body that ends early', () => {
  it("is answered 400 MULTIPART_INVALID on every upload route, for the resource's own admin, and changes nothing", async () => {
    const before = await tableCounts(t.app);
    const states = await Promise.all(TARGETS.map((target) => target.state()));
    for (const target of TARGETS) {
      for (const [how, payload] of truncatedBodies(target.fileField, target.fields)) {
        const res = await t.app.inject({ method: target.method, url: target.url(), headers: { cookie: b.owner.cookie, 'content-type': CONTENT_TYPE }, payload });
        expectRefusal(res, 400, 'MULTIPART_INVALID', `${target.what}, ${how}`);
      }
    }
    expect(await Promise.all(TARGETS.map((target) => target.state()))).toEqual(states);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('is refused for access first when it names another tenant (403), whatever the body, and changes nothing', async () => {
    const before = await tableCounts(t.app);
    const states = await Promise.all(TARGETS.map((target) => target.state()));
    const refusals: Record<string, [number, ErrorCode]> = { 'profile picture': [403, 'FORBIDDEN'], 'company logo': [403, 'NOT_A_MEMBER'], 'app icon': [403, 'ANALYTICS_NOT_MEMBER'] };
    for (const target of TARGETS) {
      const [status, code] = refusals[target.what] ?? [0, 'FORBIDDEN'];
      for (const [how, payload] of truncatedBodies(target.fileField, target.fields)) {
        const res = await t.app.inject({ method: target.method, url: target.url(), headers: { cookie: a.owner.cookie, 'content-type': CONTENT_TYPE }, payload });
        expectRefusal(res, status, code, `${target.what} of B by A, ${how}`);
      }
    }
    // A's own server naming B's app: not found there, before the body too.
    const [, cut] = truncatedBodies('icon', {})[2] ?? ['', Buffer.alloc(0)];
    const crossed = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${a.deploymentId}/apps/${appB}/icon`, headers: { cookie: a.owner.cookie, 'content-type': CONTENT_TYPE }, payload: cut });
    expectRefusal(crossed, 404, 'ANALYTICS_APP_NOT_FOUND', "B's app under A's server");
    expect(await Promise.all(TARGETS.map((target) => target.state()))).toEqual(states);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('leaves a single-use token to the upload itself: the access check before the body spends nothing', async () => {
    const created = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${a.deploymentId}/tokens`, headers: { cookie: a.owner.cookie }, payload: { purpose: 'icon once', allApps: true, multiUse: false, neverExpires: true } });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json<{ payload: { token: string } }>().payload.token;
    const body = Buffer.concat([Buffer.from(fileHead('icon')), TINY_PNG, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
    const upload = () => t.app.inject({ method: 'POST', url: `/api/v1/analytics/${a.deploymentId}/apps/${appA}/icon`, headers: { 'countly-token': token, 'content-type': CONTENT_TYPE }, payload: body });
    const first = await upload();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().payload.iconFileId).toEqual(expect.any(String));
    expectRefusal(await upload(), 401, 'ANALYTICS_TOKEN_INVALID', 'the token a second time');
  });
});

describe('over a real socket', () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    port = address && typeof address === 'object' ? address.port : 0;
  });

  /**
   * Sends the head and `body`, then ends the request: chunked (the body ends where it ends), or
   * with a Content-Length promising more than is sent (the client then sends nothing more).
   * Settles with the answer, or with status 0 if the server closed the connection without one.
   */
  function send(target: { method: string; path: string; cookie: string }, body: Buffer, framing: 'chunked' | 'short'): Promise<{ statusCode: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { cookie: target.cookie, 'content-type': CONTENT_TYPE, ...(framing === 'short' ? { 'content-length': body.length + 1000 } : {}) };
      const req = httpRequest({ host: '127.0.0.1', port, method: target.method, path: target.path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? resolve({ statusCode: 0, body: '' }) : reject(err)));
      if (framing === 'short') {
        // node's client refuses to end a body shorter than its Content-Length: write it and stop.
        req.write(body);
        req.flushHeaders();
      } else {
        req.end(body);
      }
    });
  }

  it('answers a body that ends without its closing boundary with 400 MULTIPART_INVALID, and changes nothing', async () => {
    const before = await tableCounts(t.app);
    const states = await Promise.all(TARGETS.map((target) => target.state()));
    for (const target of TARGETS) {
      for (const [how, payload] of truncatedBodies(target.fileField, target.fields)) {
        const res = await send({ method: target.method, path: target.url(), cookie: b.owner.cookie }, payload, 'chunked');
        expectRefusal(res, 400, 'MULTIPART_INVALID', `${target.what}, ${how}, over a socket`);
      }
    }
    expect(await Promise.all(TARGETS.map((target) => target.state()))).toEqual(states);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it("answers another tenant's upload with 403 at once, before its body, even when the body never comes", async () => {
    const before = await tableCounts(t.app);
    const [, payload] = truncatedBodies('icon', {})[2] ?? ['', Buffer.alloc(0)];
    const res = await send({ method: 'POST', path: `/api/v1/analytics/${b.deploymentId}/apps/${appB}/icon`, cookie: a.owner.cookie }, payload, 'short');
    expectRefusal(res, 403, 'ANALYTICS_NOT_MEMBER', 'a stranger to the tenant, body still owed');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('bounds an upload whose client stops sending mid-body: 408 REQUEST_TIMEOUT after REQUEST_TIMEOUT_MS, nothing changed', async () => {
    const before = await tableCounts(t.app);
    const states = await Promise.all(TARGETS.map((target) => target.state()));
    for (const target of TARGETS) {
      const [, payload] = truncatedBodies(target.fileField, target.fields)[2] ?? ['', Buffer.alloc(0)];
      const res = await send({ method: target.method, path: target.url(), cookie: b.owner.cookie }, payload, 'short');
      expectRefusal(res, 408, 'REQUEST_TIMEOUT', `${target.what}, stalled`);
    }
    expect(await Promise.all(TARGETS.map((target) => target.state()))).toEqual(states);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
