import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/constants';
import { GOOD_PASSWORD } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { multipart, TINY_PNG } from '../support/multipart';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let cookie: string;
let userId: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INTERCOM_SECRET: 'chat-secret' });
  const me = await signUpVerified(t.app, 'profile@example.com');
  cookie = me.cookie;
  userId = me.res.json().payload._id;
  other = (await signUpVerified(t.app, 'other@example.com')).cookie;
});
afterAll(() => t.close());

const me = async (c = cookie) => (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: c } })).json().payload;
const put = (payload: Record<string, unknown>, c = cookie, id = userId) => t.app.inject({ method: 'PUT', url: `/api/v1/users/${id}`, payload, headers: { cookie: c } });
const putForm = async (fields: Record<string, string>, file?: { data: Buffer; type?: string; name?: string; field?: string }) => {
  const { body, headers } = await multipart(fields, file && { field: file.field ?? 'uploadPicture', name: file.name ?? 'me.png', type: file.type ?? 'image/png', data: file.data });
  return t.app.inject({ method: 'PUT', url: `/api/v1/users/${userId}`, payload: body, headers: { ...headers, cookie } });
};

describe('PUT /users/{id}: profile update', () => {
  it('changes name and designation and answers the refreshed user', async () => {
    const res = await put({ firstName: 'Grace', designation: 'dev' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ _id: userId, firstName: 'Grace', designation: 'dev', picture: null });
    expect(await me()).toMatchObject({ firstName: 'Grace', designation: 'dev' });
  });

  it('uploads a picture as multipart, serves it with its sniffed type, and removes it', async () => {
    const res = await putForm({ firstName: 'Grace', designation: 'dev' }, { data: TINY_PNG, type: 'application/octet-stream', name: 'x.bin' });
    expect(res.statusCode).toBe(200);
    const picture: string = res.json().payload.picture;
    expect(picture).toMatch(/^\/api\/v1\/files\/[0-9a-f-]{36}$/);
    const file = await t.app.inject({ method: 'GET', url: picture });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);

    // A new picture replaces the old one, whose file is gone.
    const again = await putForm({ firstName: 'Grace', designation: 'dev' }, { data: TINY_PNG });
    const next: string = again.json().payload.picture;
    expect(next).not.toBe(picture);
    expect((await t.app.inject({ method: 'GET', url: picture })).statusCode).toBe(404);

    const removed = await put({ firstName: 'Grace', designation: 'dev', removePicture: true });
    expect(removed.json().payload.picture).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: next })).statusCode).toBe(404);
    expect((await tableCounts(t.app)).files).toBe(0);
  });

  it("refuses a file too big, a file that is not an image, and bad fields, changing nothing", async () => {
    await putForm({ firstName: 'Grace', designation: 'dev' }, { data: TINY_PNG });
    const before = await me();
    const counts = await tableCounts(t.app);
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(LIMITS.uploadMaxBytes)]);
    // A file over the limit is 413 (FILE_TOO_BIG), like any upload refused for its size.
    const cases = [
      [await putForm({ firstName: 'Eve', designation: 'ops' }, { data: big }), 'uploadPicture', 'The file is too big (1 MB at most).', 413],
      [await putForm({ firstName: 'Eve', designation: 'ops' }, { data: Buffer.from('<svg onload="alert(1)"/>'), type: 'image/png' }), 'uploadPicture', 'Only PNG, JPEG, GIF and WebP images are supported.', 400],
      [await putForm({ firstName: 'E', designation: 'ops' }, { data: TINY_PNG }), 'firstName', 'Use 2 to 64 characters.', 400],
      [await put({ firstName: 'Eve', designation: 'astronaut' }), 'designation', undefined, 400],
      [await put({ firstName: '<b>Eve</b>', designation: 'ops' }), 'firstName', 'HTML is not allowed.', 400],
    ] as const;
    for (const [res, field, message, status] of cases) {
      expect(res.statusCode, field).toBe(status);
      const errors = res.json().payload.errors[field];
      expect(errors, field).toBeDefined();
      if (message) expect(errors).toContain(message);
    }
    expect(await me()).toEqual(before);
    expect(await tableCounts(t.app)).toEqual(counts);
  });

  it("refuses another user's id and a missing session", async () => {
    const before = await me();
    expect((await put({ firstName: 'Mallory', designation: 'ops' }, other)).statusCode).toBe(403);
    expect((await put({ firstName: 'Mallory', designation: 'ops' }, '')).statusCode).toBe(401);
    expect(await me()).toEqual(before);
  });
});

describe('GET /users/{id}/export', () => {
  it('downloads the own data as a dated JSON file without any secret', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Export Co' }, headers: { cookie } });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/users/${userId}/export`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="beacon-data-${new Date().toISOString().slice(0, 10)}.json"`);
    const data = res.json();
    expect(data.user).toMatchObject({ _id: userId, email: 'profile@example.com', firstName: 'Grace' });
    expect(data.companies).toEqual([expect.objectContaining({ name: 'Export Co', role: 'admin', projects: [expect.objectContaining({ name: 'Default project' })] })]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/argon2|password_?hash|totp|token_?hash/i);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/${userId}/export`, headers: { cookie: other } })).statusCode).toBe(403);
  });
});

describe('GET /auth/intercom-hash', () => {
  it('answers the HMAC-SHA256 of the user id with the configured secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/intercom-hash', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.hash).toBe(createHmac('sha256', 'chat-secret').update(userId).digest('hex'));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/intercom-hash' })).statusCode).toBe(401);
  });

  it('answers 404 when no secret is configured', async () => {
    const bare = await createTestApp();
    try {
      const { cookie: c } = await signUpVerified(bare.app, 'chat@example.com');
      const res = await bare.app.inject({ method: 'GET', url: '/api/v1/auth/intercom-hash', headers: { cookie: c } });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('DELETE /auth/me', () => {
  it('refuses while the user is the last admin of a company with other members, then deletes the user with the companies only they belonged to', async () => {
    const owner = await signUpVerified(t.app, 'leaver@example.com');
    const mate = await signUpVerified(t.app, 'mate@example.com');
    const api = (method: 'POST' | 'DELETE' | 'GET', url: string, c: string, payload?: Record<string, unknown>) => t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie: c } });
    const shared = (await api('POST', '/companies', owner.cookie, { name: 'Shared Co' })).json().payload._id;
    const solo = (await api('POST', '/companies', owner.cookie, { name: 'Solo Co' })).json().payload._id;
    // The mate joins Shared Co as a viewer (invitations are tested in companies.test.ts).
    await t.app.database.rows(`insert into company_members (company_id, user_id, role) select '${shared}', id, 'viewer' from users where email = 'mate@example.com'`);

    const before = await tableCounts(t.app);
    const refused = await api('DELETE', '/auth/me', owner.cookie, { password: GOOD_PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/last admin/);
    expect(await tableCounts(t.app)).toEqual(before);

    const wrong = await api('DELETE', '/auth/me', mate.cookie, { password: 'Wrong-Pass-1' });
    expect(wrong.statusCode).toBe(400);

    await api('DELETE', `/companies/${shared}/users/${mate.res.json().payload._id}`, owner.cookie);
    const done = await api('DELETE', '/auth/me', owner.cookie, { password: GOOD_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect((await api('GET', '/auth/me', owner.cookie)).statusCode).toBe(401);
    const left = await t.app.database.rows<{ id: string }>(`select id from companies where id in ('${shared}', '${solo}')`);
    expect(left).toEqual([]);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'leaver@example.com', password: GOOD_PASSWORD } });
    expect(signIn.statusCode).toBe(401);
  });
});
