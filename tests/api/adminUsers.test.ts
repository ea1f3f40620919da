import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstAdmin } from '../../server/db/seed';
import { GOOD_PASSWORD, sessionCookie, signUp, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let adminCookie: string;
let userCookie: string;
const ADMIN = { email: 'root@example.com', password: 'Root#Pass-2026' };

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  await seedFirstAdmin(t.app.database.db, ADMIN);
  adminCookie = sessionCookie(await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: ADMIN }));
  userCookie = (await signUpVerified(t.app, 'plain@example.com')).cookie;
  // 2,500 more users, with same-name runs so that sorting needs the id tie-break.
  await t.app.database.rows(`insert into users (email, first_name, last_name, created_at)
    select 'bulk' || i || '@example.com', 'Name' || (i % 7), 'Bulk', now() - (i || ' minutes')::interval from generate_series(1, 2500) as i`);
});
afterAll(() => t.close());

const get = (url: string, cookie = adminCookie) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie } });
const q = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');

describe('admin users list (ra-data-simple-rest)', () => {
  it('pages with Content-Range and sorts', async () => {
    const res = await get(`/admin/users?${q({ sort: ['email', 'ASC'], range: [0, 9], filter: {} })}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('users 0-9/2502');
    const emails = res.json().payload.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort());
  });

  it('searches by name or email', async () => {
    const res = await get(`/admin/users?${q({ filter: { q: 'plain' } })}`);
    expect(res.json().payload.map((u: { email: string }) => u.email)).toEqual(['plain@example.com']);
  });

  it('refuses non-admins with 403 and bad queries with 400', async () => {
    expect((await get('/admin/users', userCookie)).statusCode).toBe(403);
    expect((await get('/admin/users/export?format=csv', userCookie)).statusCode).toBe(403);
    expect((await get(`/admin/users?${q({ sort: ['passwordHash', 'ASC'] })}`)).statusCode).toBe(400);
    expect((await get('/admin/users?range=[0,5000]')).statusCode).toBe(400);
    expect((await get('/admin/users/export?format=xml')).statusCode).toBe(400);
  });
});

describe('admin users export, streamed', () => {
  it('streams every matching row as CSV in the requested order', async () => {
    const res = await get(`/admin/users/export?format=csv&${q({ sort: ['firstName', 'DESC'], filter: {} })}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe('ID,Email,First name,Last name,Platform admin,Email verified,Locked,Created');
    expect(lines).toHaveLength(2503);
    const ids = lines.slice(1).map((l) => l.split(',')[0]);
    expect(new Set(ids).size).toBe(2502);
    const names = lines.slice(1).map((l) => l.split(',')[2] ?? '');
    expect(names).toEqual([...names].sort().reverse());
  });

  it('streams JSON that parses, and honours the search', async () => {
    const all = JSON.parse((await get(`/admin/users/export?format=json&${q({ sort: ['createdAt', 'ASC'] })}`)).body) as { createdAt: string }[];
    expect(all).toHaveLength(2502);
    const times = all.map((u) => u.createdAt);
    expect(times).toEqual([...times].sort());
    const some = JSON.parse((await get(`/admin/users/export?format=json&${q({ filter: { q: 'bulk1' } })}`)).body) as unknown[];
    // bulk1, bulk10–19, bulk100–199, bulk1000–1999
    expect(some).toHaveLength(1 + 10 + 100 + 1000);
  });
});

describe('admin user page and actions', () => {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie = adminCookie, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const idOf = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';
  const audit = (action: string, target: string) => t.app.database.rows<{ actor_email: string | null }>(`select actor_email from audit_logs where action = '${action}' and target_id = '${target}'`);

  it('shows a user with companies, sessions and sign-in history (failures too)', async () => {
    const { cookie } = await signUpVerified(t.app, 'page@example.com');
    await t.app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Page Co' }, headers: { cookie } });
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'page@example.com', password: 'Wrong#Pass-999' } });
    const id = await idOf('page@example.com');
    const res = await call('GET', `/admin/users/${id}`);
    expect(res.statusCode).toBe(200);
    const user = res.json().payload;
    expect(user).toMatchObject({ _id: id, email: 'page@example.com', via: 'local', mfaEnabled: false, companies: [{ name: 'Page Co', role: 'admin' }] });
    expect(user.sessions).toHaveLength(1);
    expect(user.signIns.map((s: { ok: boolean }) => s.ok)).toEqual([false, true]);
    expect((await call('GET', '/admin/users/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await call('GET', '/admin/users/not-a-uuid')).statusCode).toBe(404);
  });

  it('locks: sign-in is refused and sessions end; unlocks: sign-in works again; both audited', async () => {
    const { cookie } = await signUpVerified(t.app, 'lockme@example.com');
    const id = await idOf('lockme@example.com');
    const locked = await call('POST', `/admin/users/${id}/lock`, adminCookie, {});
    expect(locked.statusCode).toBe(200);
    expect(locked.json().payload).toMatchObject({ locked: true, sessions: [] });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(401);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'lockme@example.com', password: GOOD_PASSWORD } });
    expect(refused.json().code).toBe('ACCOUNT_SUSPENDED');
    expect((await call('POST', `/admin/users/${id}/unlock`, adminCookie, {})).json().payload.locked).toBe(false);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'lockme@example.com', password: GOOD_PASSWORD } })).statusCode).toBe(200);
    expect(await audit('user.lock', id)).toEqual([{ actor_email: ADMIN.email }]);
    expect(await audit('user.unlock', id)).toEqual([{ actor_email: ADMIN.email }]);
  });

  it('ends every session of a user: their browser is signed out', async () => {
    const { cookie } = await signUpVerified(t.app, 'ends@example.com');
    const id = await idOf('ends@example.com');
    expect((await call('POST', `/admin/users/${id}/end-sessions`, adminCookie, {})).json().payload.sessions).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(401);
    expect(await audit('user.endSessions', id)).toHaveLength(1);
  });

  it('resends the verification mail once per 2 minutes, never to a verified address', async () => {
    await signUp(t.app, 'resend@example.com');
    const id = await idOf('resend@example.com');
    await t.app.database.rows(`update users set verification_sent_at = now() - interval '3 minutes' where id = '${id}'`);
    const after = new Date();
    expect((await call('POST', `/admin/users/${id}/resend-verification`, adminCookie, {})).statusCode).toBe(200);
    await waitForMail(t.app, 'resend@example.com', 'Verify', after);
    const before = await tableCounts(t.app);
    expect((await call('POST', `/admin/users/${id}/resend-verification`, adminCookie, {})).json().code).toBe('VERIFICATION_ALREADY_SENT');
    const adminId = await idOf(ADMIN.email);
    expect((await call('POST', `/admin/users/${adminId}/resend-verification`, adminCookie, {})).json().code).toBe('ALREADY_VERIFIED');
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await audit('user.resendVerification', id)).toHaveLength(1);
  });

  it('grants and revokes the platform admin role through PUT, never for oneself or the last admin', async () => {
    await signUpVerified(t.app, 'deputy2@example.com');
    const id = await idOf('deputy2@example.com');
    const adminId = await idOf(ADMIN.email);
    expect((await call('PUT', `/admin/users/${id}`, adminCookie, { id, email: 'ignored', isAdmin: true })).json().payload.isAdmin).toBe(true);
    expect((await call('PUT', `/admin/users/${id}`, adminCookie, { isAdmin: false })).json().payload.isAdmin).toBe(false);
    const before = await tableCounts(t.app);
    expect((await call('PUT', `/admin/users/${adminId}`, adminCookie, { isAdmin: false })).json().code).toBe('CANNOT_DEMOTE_SELF');
    expect((await call('POST', `/admin/users/${adminId}/lock`, adminCookie, {})).json().code).toBe('CANNOT_ACT_ON_SELF');
    expect((await call('DELETE', `/admin/users/${adminId}`)).json().code).toBe('CANNOT_ACT_ON_SELF');
    expect((await call('PUT', `/admin/users/${id}`, adminCookie, { isAdmin: 'yes' })).statusCode).toBe(400);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('deletes a user with what belongs only to them; a refused deletion changes nothing', async () => {
    const { cookie } = await signUpVerified(t.app, 'gone@example.com');
    await t.app.inject({ method: 'POST', url: '/api/v1/companies', payload: { name: 'Gone Co' }, headers: { cookie } });
    const id = await idOf('gone@example.com');
    const res = await call('DELETE', `/admin/users/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ _id: id });
    expect(await idOf('gone@example.com')).toBe('');
    expect(await t.app.database.rows("select id from companies where name = 'Gone Co'")).toEqual([]);
    expect(await audit('user.delete', id)).toEqual([{ actor_email: ADMIN.email }]);
    const before = await tableCounts(t.app);
    expect((await call('DELETE', `/admin/users/${id}`)).statusCode).toBe(404);
    expect((await call('POST', `/admin/users/${id}/lock`, userCookie, {})).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
