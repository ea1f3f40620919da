import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorEnvelope } from '../../src/domain/errors';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Requests Fastify or Node refuse before any route runs: they need a real socket,
// since app.inject skips Node's parser and builds URLs of its own.
let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const SECRET = 'S3cr3t-token-value';

/** Sends raw bytes and reads the whole answer (every request here ends its connection). */
function raw(text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      // Keep-alive answers do not close: stop once the declared body is in.
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head);
      if (length && Buffer.byteLength(body) >= Number(length[1])) socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' && answer ? undefined : reject(err)));
    socket.on('close', () => {
      const [head = '', ...rest] = answer.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.write(text);
  });
}

const get = (target: string, extraHeaders = '') => raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extraHeaders}\r\n`);

function expectEnvelope(res: { status: number; body: string }, code: keyof typeof ERRORS) {
  expect(res.status, res.body).toBe(ERRORS[code].status);
  const body = JSON.parse(res.body) as ErrorEnvelope;
  expect(body).toEqual({ message: expect.any(String), code, payload: { errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
  expect(res.body).not.toContain(SECRET);
  return body;
}

describe("Fastify's and Node's own refusals", () => {
  it('answer the error envelope with an errorId and never echo the request, changing nothing', async () => {
    const before = await tableCounts(t.app);
    // A bad percent-encoding in the path: Fastify's answer used to quote the whole URL, query secrets included.
    expectEnvelope(await get(`/api/v1/users/%E0%A4%A?auth_token=${SECRET}&api_key=${SECRET}`), 'BAD_REQUEST');
    expectEnvelope(await get(`/api/v1/analytics/%zz/apps?api_key=${SECRET}`), 'BAD_REQUEST');
    // A path part past the router's maxParamLength.
    expectEnvelope(await get(`/api/v1/users/${'a'.repeat(200)}${SECRET}?auth_token=${SECRET}`), 'URI_TOO_LONG');
    // Request line plus headers past Node's limit: refused by Node's parser, before Fastify.
    expectEnvelope(await get(`/api/v1/health?auth_token=${SECRET}${'x'.repeat(20_000)}`), 'HEADERS_TOO_LARGE');
    expectEnvelope(await get('/api/v1/health', `X-Padding: ${SECRET}${'y'.repeat(20_000)}\r\n`), 'HEADERS_TOO_LARGE');
    // Not HTTP at all.
    expectEnvelope(await raw(`BREW /${SECRET} HTCPCP/1.0\r\n\r\n`), 'BAD_REQUEST');
    expectEnvelope(await raw(`GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\nX-Key: ${SECRET}\r\n\r\n`), 'BAD_REQUEST');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await get('/api/v1/health')).status).toBe(200);
  });

  it('answers bad JSON and a wrong content type with the envelope and an errorId', async () => {
    const before = await tableCounts(t.app);
    const cases: [Record<string, string>, string, keyof typeof ERRORS][] = [
      [{ 'content-type': 'application/json' }, `{"email": "${SECRET}`, 'INVALID_JSON'],
      [{ 'content-type': 'application/json' }, '', 'INVALID_JSON'],
      [{ 'content-type': 'text/csv' }, `email,${SECRET}`, 'UNSUPPORTED_MEDIA_TYPE'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, `email=${SECRET}`, 'UNSUPPORTED_MEDIA_TYPE'],
    ];
    for (const [headers, payload, code] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', headers, payload });
      expectEnvelope({ status: res.statusCode, body: res.body }, code);
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
