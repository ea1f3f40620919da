import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema';
import { signUpVerified } from '../support/accounts';
import { GOOD_PASSWORD, sessionCookie } from '../support/auth';
import { createTestApp, type TestApp } from '../support/testApp';

// Signed-in reads keep the session row and the user's companies in memory (issue 17). Whatever
// changes them through this process must show on the very next request.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
const payloadOf = (res: { body: string }) => (JSON.parse(res.body) as { payload: { _id: string; firstName: string; companies: { _id: string; name: string }[] } }).payload;
const signIn = async (email: string, password = GOOD_PASSWORD) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return sessionCookie(res);
};

describe('the in-memory session rows', () => {
  it('end with a sign-out at once', async () => {
    const { cookie } = await signUpVerified(t.app, 'cache-signout@example.com');
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/signout', headers: { cookie } })).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('end with a password change in another session at once', async () => {
    const { cookie } = await signUpVerified(t.app, 'cache-password@example.com');
    const other = await signIn('cache-password@example.com');
    expect((await me(other)).statusCode).toBe(200);
    const changed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/set-password', payload: { oldPassword: GOOD_PASSWORD, password: 'Fresh#Start42' }, headers: { cookie } });
    expect(changed.statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
  });

  it('end when the row is deleted by any code of this process', async () => {
    const { cookie } = await signUpVerified(t.app, 'cache-revoked@example.com');
    const body = payloadOf(await me(cookie));
    await t.app.database.db.delete(sessions).where(eq(sessions.userId, body._id));
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('show a profile change and a new or renamed company on the next request', async () => {
    const { cookie } = await signUpVerified(t.app, 'cache-profile@example.com');
    const before = payloadOf(await me(cookie));
    expect(before.companies).toEqual([]);
    const renamed = await t.app.inject({ method: 'PUT', url: `/api/v1/users/${before._id}`, payload: { firstName: 'Grace', designation: 'dev' }, headers: { cookie } });
    expect(renamed.statusCode).toBe(200);
    expect(payloadOf(await me(cookie)).firstName).toBe('Grace');

    const created = await t.app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Cache Works' }, headers: { cookie } });
    expect(created.statusCode).toBe(201);
    const companyId = (JSON.parse(created.body) as { payload: { _id: string } }).payload._id;
    expect(payloadOf(await me(cookie)).companies).toEqual([{ _id: companyId, name: 'Cache Works' }]);

    const updated = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${companyId}`, payload: { name: 'Cache Renamed' }, headers: { cookie } });
    expect(updated.statusCode).toBe(200);
    expect(payloadOf(await me(cookie)).companies).toEqual([{ _id: companyId, name: 'Cache Renamed' }]);
  });
});
