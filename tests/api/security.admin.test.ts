import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { seedFirstAdmin } from '../../server/db/seed';
import { setPlatformAdmin } from '../../server/services/adminUsers';
import { GOOD_PASSWORD, sessionCookie, signUp } from '../support/auth';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Security review: the last platform admin and the generated first-admin password.
let t: TestApp;
const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie } });
const signIn = async (email: string, password: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookie(res);
};
const isAdmin = async (email: string) => (await t.app.database.rows<{ is_admin: boolean }>(`select is_admin from users where email = '${email}'`))[0]?.is_admin;
const userId = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(() => t.close());

describe('9. the last platform admin', () => {
  it('a stranger who signed up with ADMIN_EMAIL before the first start is never made admin by seeding, however often it runs', async () => {
    const stranger = (await signUp(t.app, 'root@example.com')).cookie;
    const result = await seedFirstAdmin(t.app.database.db, { email: 'root@example.com' });
    expect(result).toEqual({ skipped: 'emailTaken', email: 'root@example.com' });

    // A restart: a second app on the same database, seeding as the server's start does.
    const restarted = await buildApp(t.config, { database: t.app.database, logger: false });
    try {
      const before = await tableCounts(restarted);
      expect(await seedFirstAdmin(restarted.database.db, { email: 'ROOT@example.com' })).toEqual({ skipped: 'emailTaken', email: 'root@example.com' });
      expect(await tableCounts(restarted)).toEqual(before);
      // Refused before the admin check: an address nobody proved reaches nothing but the verify screen.
      const res = await restarted.inject({ method: 'GET', url: '/api/v1/admin/users', headers: { cookie: stranger } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('EMAIL_NOT_VERIFIED');
    } finally {
      await restarted.close();
    }
    expect(await isAdmin('root@example.com')).toBe(false);
    expect((await t.app.database.rows<{ n: number }>('select count(*)::int as n from users where is_admin'))[0]?.n).toBe(0);
  });

  it('refuses to delete the account of the last platform admin (409), which stays admin', async () => {
    await seedFirstAdmin(t.app.database.db, { email: 'boss@example.com', password: 'Boss#Pass-2026' });
    const boss = await signIn('boss@example.com', 'Boss#Pass-2026');
    const before = await tableCounts(t.app);
    const res = await api('DELETE', '/auth/me', boss, { password: 'Boss#Pass-2026' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'LAST_PLATFORM_ADMIN', message: 'You are the last platform admin. Make another account a platform admin first.' });
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await isAdmin('boss@example.com')).toBe(true);
    expect((await api('GET', '/admin/users', boss)).statusCode).toBe(200);
  });

  it('refuses self-demotion and demoting the last admin; with a second admin the first may leave', async () => {
    const bossId = await userId('boss@example.com');
    const boss = { id: bossId, email: 'boss@example.com' };
    await expect(setPlatformAdmin(t.app.database.db, boss, bossId, false)).rejects.toMatchObject({ code: 'CANNOT_DEMOTE_SELF', statusCode: 409 });
    expect(await isAdmin('boss@example.com')).toBe(true);

    await signUp(t.app, 'deputy@example.com');
    const deputyId = await userId('deputy@example.com');
    const deputyActor = { id: deputyId, email: 'deputy@example.com' };
    await setPlatformAdmin(t.app.database.db, boss, deputyId, true);
    // The deputy demotes the boss: allowed while another admin (the deputy) remains...
    await setPlatformAdmin(t.app.database.db, deputyActor, bossId, false);
    expect(await isAdmin('boss@example.com')).toBe(false);
    // ...and the deputy, now the last admin, cannot leave.
    const deputy = await signIn('deputy@example.com', GOOD_PASSWORD);
    const before = await tableCounts(t.app);
    expect((await api('DELETE', '/auth/me', deputy, { password: GOOD_PASSWORD })).json().code).toBe('LAST_PLATFORM_ADMIN');
    expect(await tableCounts(t.app)).toEqual(before);

    // With two admins again, one may delete their account.
    await setPlatformAdmin(t.app.database.db, deputyActor, bossId, true);
    expect((await api('DELETE', '/auth/me', deputy, { password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect(await isAdmin('boss@example.com')).toBe(true);

    // Each change of role is in the audit log, with who did it and the value before and after;
    // the refused ones left nothing there.
    const audit = await t.app.database.rows<{ actor_email: string; action: string; target_id: string; before: unknown; after: unknown }>(
      "select actor_email, action, target_id, before, after from audit_logs where action in ('user.grantAdmin', 'user.revokeAdmin') order by at, id",
    );
    expect(audit).toEqual([
      { actor_email: 'boss@example.com', action: 'user.grantAdmin', target_id: deputyId, before: { isAdmin: false }, after: { isAdmin: true } },
      { actor_email: 'deputy@example.com', action: 'user.revokeAdmin', target_id: bossId, before: { isAdmin: true }, after: { isAdmin: false } },
      { actor_email: 'deputy@example.com', action: 'user.grantAdmin', target_id: bossId, before: { isAdmin: false }, after: { isAdmin: true } },
    ]);
    // The refused deletion left nothing; the one that went through is there once.
    const deletions = await t.app.database.rows<{ actor_email: string }>("select actor_email from audit_logs where action = 'user.delete'");
    expect(deletions).toEqual([{ actor_email: 'deputy@example.com' }]);
  });

  it('keeps the audit log as written: UPDATE and DELETE are refused by the database', async () => {
    const [row] = await t.app.database.rows<{ id: string }>('select id from audit_logs limit 1');
    expect(row).toBeDefined();
    const refused = { cause: expect.objectContaining({ message: expect.stringMatching(/cannot be changed/) }) };
    await expect(t.app.database.rows(`update audit_logs set action = 'x' where id = '${row?.id}'`)).rejects.toMatchObject(refused);
    await expect(t.app.database.rows(`delete from audit_logs where id = '${row?.id}'`)).rejects.toMatchObject(refused);
    expect((await t.app.database.rows<{ n: number }>("select count(*)::int as n from audit_logs where action = 'x'"))[0]?.n).toBe(0);
  });
});

describe('22. the generated first-admin password', () => {
  let app2: TestApp;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: Record<string, unknown>) =>
    app2.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie } });
  beforeAll(async () => {
    app2 = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  });
  afterAll(() => app2.close());

  it('must be changed before anything else; setting a password clears the demand', async () => {
    const seeded = await seedFirstAdmin(app2.app.database.db, { email: 'first@example.com' });
    const printed = seeded && 'generatedPassword' in seeded ? (seeded.generatedPassword ?? '') : '';
    expect(printed).toHaveLength(20);
    const signedIn = await app2.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'first@example.com', password: printed } });
    expect(signedIn.json().payload).toMatchObject({ isAdmin: true, mustChangePassword: true });
    const cookie = sessionCookie(signedIn);
    const id = signedIn.json().payload._id as string;

    const before = await tableCounts(app2.app);
    for (const [method, url, payload] of [
      ['GET', '/admin/users', undefined],
      ['POST', '/companies', { name: 'Admin Co' }],
      ['PUT', `/users/${id}`, { firstName: 'Mallory', lastName: 'Admin' }],
      ['POST', '/auth/2fa/initiate', {}],
    ] as const) {
      const res = await call(method, url, cookie, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED', message: 'Please choose a new password before you continue.' });
    }
    expect(await tableCounts(app2.app)).toEqual(before);
    expect((await call('GET', '/auth/me', cookie)).json().payload.mustChangePassword).toBe(true);

    expect((await call('POST', '/auth/set-password', cookie, { oldPassword: printed, password: 'Chosen#Pass-2026' })).statusCode).toBe(200);
    const again = await app2.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'first@example.com', password: 'Chosen#Pass-2026' } });
    expect(again.json().payload.mustChangePassword).toBe(false);
    expect((await call('GET', '/admin/users', sessionCookie(again))).statusCode).toBe(200);
  });

  it('is not demanded when the operator chose the password with ADMIN_PASSWORD', async () => {
    const [row] = await app2.app.database.rows<{ n: number }>('select count(*)::int as n from users where must_change_password');
    expect(row?.n).toBe(0);
    await app2.app.database.rows('update users set is_admin = false');
    await seedFirstAdmin(app2.app.database.db, { email: 'chosen@example.com', password: 'Operator#Pass-2026' });
    const res = await app2.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'chosen@example.com', password: 'Operator#Pass-2026' } });
    expect(res.json().payload.mustChangePassword).toBe(false);
    expect((await call('GET', '/admin/users', sessionCookie(res))).statusCode).toBe(200);
  });
});
