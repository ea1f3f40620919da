import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyMembers, sessions } from '../../server/db/schema';
import { signUpVerified } from '../support/accounts';
import { GOOD_PASSWORD, sessionCookie } from '../support/auth';
import { addMember, companyOwner } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

// Signed-in reads keep the session row, the user's companies and memberships in memory. Whatever
// changes them through this process must show on the very next request.
let t: TestApp;
beforeAll(async () => {
  // Several sign-ups from one address: the per-address limit of sign-ins is not what is tested here.
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000' });
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
    expect(payloadOf(await me(cookie)).companies).toEqual([{ _id: companyId, name: 'Cache Works', role: 'admin' }]);

    const updated = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${companyId}`, payload: { name: 'Cache Renamed' }, headers: { cookie } });
    expect(updated.statusCode).toBe(200);
    expect(payloadOf(await me(cookie)).companies).toEqual([{ _id: companyId, name: 'Cache Renamed', role: 'admin' }]);
  });
});

describe('the in-memory memberships', () => {
  const servers = (companyId: string, cookie: string) => t.app.inject({ method: 'GET', url: `/api/v1/deployments?company=${companyId}`, headers: { cookie } });

  it('end when the member is removed, on the very next request', async () => {
    const owner = await companyOwner(t.app, 'cache-owner@example.com');
    const member = await addMember(t.app, owner.companyId, 'cache-member@example.com', 'viewer');
    expect((await servers(owner.companyId, member)).statusCode).toBe(200);
    expect((await servers(owner.companyId, member)).statusCode).toBe(200);
    const [row] = await t.app.database.rows<{ id: string }>(`select id from users where email = 'cache-member@example.com'`);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${owner.companyId}/users/${row?.id ?? ''}`, headers: { cookie: owner.cookie } });
    expect(removed.statusCode).toBe(200);
    const refused = await servers(owner.companyId, member);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ code: string }>().code).toBe('NOT_A_MEMBER');
  });

  it('follow a role change made elsewhere in this process', async () => {
    const owner = await companyOwner(t.app, 'cache-demoted@example.com');
    const [row] = await t.app.database.rows<{ id: string }>(`select id from users where email = 'cache-demoted@example.com'`);
    const newProject = (name: string) => t.app.inject({ method: 'POST', url: `/api/v1/companies/${owner.companyId}/projects`, payload: { name }, headers: { cookie: owner.cookie } });
    expect((await newProject('Kept as admin')).statusCode).toBe(201);
    await t.app.database.db.update(companyMembers).set({ role: 'viewer' }).where(eq(companyMembers.userId, row?.id ?? ''));
    const refused = await newProject('Made as viewer');
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ code: string }>().code).toBe('ROLE_REQUIRED');
    expect((await servers(owner.companyId, owner.cookie)).statusCode).toBe(200);
  });
});
