import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstAdmin } from '../../server/db/seed';
import { sessionCookie, signUp } from '../support/auth';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let adminCookie: string;
let userCookie: string;
const ADMIN = { email: 'root@example.com', password: 'Root#Pass-2026' };

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  await seedFirstAdmin(t.app.database.db, ADMIN);
  adminCookie = sessionCookie(await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: ADMIN }));
  userCookie = (await signUp(t.app, 'plain@example.com')).cookie;
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
