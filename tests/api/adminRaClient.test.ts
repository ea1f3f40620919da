import { HttpError, type DataProvider } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie } from '../support/admin';
import { signUp } from '../support/auth';
import { freePort } from '../support/net';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * The published ra-data-simple-rest client itself, against the admin API of the real app listening
 * on a port, over Node's fetch: only the envelope is unwrapped (and `_id` copied to `id`), as our
 * browser wrapper does, so the query, Content-Range and method conventions are the library's own.
 */
let t: TestApp;
let provider: DataProvider;
let ids: string[];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  const cookie = await adminCookie(t.app);
  for (const name of ['carol', 'alice', 'bob', 'dave']) await signUp(t.app, `${name}@example.com`);
  ids = (await t.app.database.rows<{ id: string }>("select id from users where email like '%@example.com' and email <> 'root@example.com' order by email")).map((r) => r.id);
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  const httpClient = async (url: string, options: RequestInit = {}) => {
    const headers = new Headers(options.headers);
    headers.set('cookie', cookie);
    headers.set('accept', 'application/json');
    if (options.body) headers.set('content-type', 'application/json');
    const res = await fetch(url, { ...options, headers });
    const body = (await res.json()) as { message: string; payload: unknown };
    if (res.status < 200 || res.status >= 300) throw new HttpError(body.message, res.status, body);
    const withId = (v: unknown): unknown => (Array.isArray(v) ? v.map(withId) : v && typeof v === 'object' && '_id' in v ? { ...v, id: (v as { _id: string })._id } : v);
    return { status: res.status, headers: res.headers, body: JSON.stringify(body.payload), json: withId(body.payload) as never };
  };
  provider = simpleRestProvider(`http://127.0.0.1:${port}/api/v1/admin`, httpClient);
});
afterAll(() => t.close());

describe('ra-data-simple-rest against the admin API', () => {
  it('getList sorts, pages with Content-Range and filters', async () => {
    const page = await provider.getList('users', { pagination: { page: 1, perPage: 2 }, sort: { field: 'email', order: 'ASC' }, filter: {} });
    expect(page.total).toBe(5);
    expect(page.data.map((u) => u.email)).toEqual(['alice@example.com', 'bob@example.com']);
    const next = await provider.getList('users', { pagination: { page: 2, perPage: 2 }, sort: { field: 'email', order: 'ASC' }, filter: {} });
    expect(next.data.map((u) => u.email)).toEqual(['carol@example.com', 'dave@example.com']);
    const desc = await provider.getList('users', { pagination: { page: 1, perPage: 1 }, sort: { field: 'email', order: 'DESC' }, filter: {} });
    expect(desc.data[0]?.email).toBe('root@example.com');
    const found = await provider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'email', order: 'ASC' }, filter: { q: 'car' } });
    expect(found).toMatchObject({ total: 1, data: [{ email: 'carol@example.com' }] });
    const companies = await provider.getList('companies', { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: { hasPaidServers: false } });
    expect(companies.total).toBe(0);
  });

  it('getOne and getMany read records by id', async () => {
    const one = await provider.getOne('users', { id: ids[0] ?? '' });
    expect(one.data).toMatchObject({ id: ids[0], email: 'alice@example.com', companies: [], sessions: [expect.any(Object)] });
    const many = await provider.getMany('users', { ids: [ids[1] ?? '', ids[2] ?? ''] });
    expect(many.data.map((u) => u.email).sort()).toEqual(['bob@example.com', 'carol@example.com']);
  });

  it('update and delete change what they name, and refusals come back as HttpErrors', async () => {
    const updated = await provider.update('users', { id: ids[1] ?? '', data: { isAdmin: true }, previousData: { id: ids[1] ?? '' } });
    expect(updated.data).toMatchObject({ id: ids[1], isAdmin: true });
    const deleted = await provider.delete('users', { id: ids[3] ?? '', previousData: { id: ids[3] ?? '' } });
    expect(deleted.data).toEqual({ _id: ids[3], id: ids[3] });
    const before = await tableCounts(t.app);
    await expect(provider.delete('users', { id: ids[3] ?? '' })).rejects.toMatchObject({ status: 404 });
    await expect(provider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'passwordHash', order: 'ASC' }, filter: {} })).rejects.toMatchObject({ status: 400 });
    expect(await tableCounts(t.app)).toEqual(before);
    const created = await provider.create('plan-groups', { data: { name: 'Via the client', description: '' } });
    expect(created.data).toMatchObject({ name: 'Via the client', plans: 0 });
  });
});
