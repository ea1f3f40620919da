import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESTIMATE_FROM, FILTER_PEEK } from '../../server/services/adminQuery';
import { adminCookie, auditRows, call, raQuery } from '../support/admin';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
const ROWS = ESTIMATE_FROM + 2_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCookie(t.app);
  await t.app.database.rows(`insert into users (email, first_name, last_name)
    select 'bulk' || i || '@lists.example.com', (array['Ada','Grace','Alan'])[1 + i % 3], 'Bulk' || i % 7 from generate_series(1, ${ROWS}) as i`);
});
afterAll(() => t.close());

const total = (res: { headers: Record<string, unknown> }) => Number(String(res.headers['content-range']).split('/')[1]);
const exact = async () => (await t.app.database.rows<{ n: number }>('select count(*)::int as n from users'))[0]?.n ?? 0;

describe('admin lists of big tables', () => {
  it('answers an unfiltered total near the real count without counting it, and filtered totals exactly', async () => {
    const n = await exact();
    const res = await call(t.app, 'GET', `/admin/users?${raQuery({ sort: ['email', 'ASC'], range: [0, 9] })}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toHaveLength(10);
    expect(Math.abs(total(res) - n) / n).toBeLessThan(0.1);
    const filtered = await call(t.app, 'GET', `/admin/users?${raQuery({ filter: { q: 'bulk12' }, range: [0, 9] })}`, admin);
    // bulk12, bulk120-129, bulk1200-1299, bulk12000-12000+: counted exactly.
    const matching = (await t.app.database.rows<{ n: number }>("select count(*)::int as n from users where email ilike '%bulk12%'"))[0]?.n;
    expect(total(filtered)).toBe(matching);
  });

  it('sorts either way with the id following, pages agree with each other, and the export has every row once', async () => {
    const page = async (range: [number, number]) =>
      (await call(t.app, 'GET', `/admin/users?${raQuery({ sort: ['firstName', 'DESC'], range, filter: { q: '@lists.example' } })}`, admin)).json().payload as { _id: string; firstName: string }[];
    const [a, b] = [await page([0, 19]), await page([20, 39])];
    const both = [...a, ...b];
    expect(new Set(both.map((u) => u._id)).size).toBe(40);
    // The bulk users: Grace first (descending), and within one name the ids descend too.
    expect(both.every((u) => u.firstName === 'Grace')).toBe(true);
    expect(both.map((u) => u._id)).toEqual([...both.map((u) => u._id)].sort().reverse());
    const csv = await call(t.app, 'GET', `/admin/users/export?format=csv&${raQuery({ sort: ['firstName', 'DESC'] })}`, admin);
    const lines = csv.body.trimEnd().split('\n').slice(1);
    expect(lines).toHaveLength(await exact());
    expect(new Set(lines.map((l) => l.split(',')[0])).size).toBe(lines.length);
  });

  it('pages by keyset (next, previous, last) to the same rows as by offset, at any depth', async () => {
    type Row = { _id: string; email: string };
    const get = (q: Record<string, unknown>, extra = '') => call(t.app, 'GET', `/admin/users?${raQuery({ sort: ['email', 'DESC'], filter: { q: 'bulk12' }, ...q })}${extra}`, admin);
    const ids = (res: { json(): { payload: Row[] } }) => res.json().payload.map((r) => r._id);
    const n = total(await get({ range: [0, 0] }));
    const [p1, p2, p3] = [await get({ range: [0, 19] }), await get({ range: [20, 39] }), await get({ range: [40, 59] })];
    const next = await get({ range: [20, 39] }, `&after=${String(p1.headers['x-cursor-last'])}`);
    expect(next.headers['content-range']).toBe(`users 20-39/${n}`);
    expect(ids(next)).toEqual(ids(p2));
    const previous = await get({ range: [20, 39] }, `&before=${String(p3.headers['x-cursor-first'])}`);
    expect(ids(previous)).toEqual(ids(p2));
    // The last page read from the end of the index: the same rows as the deepest offset page.
    const lastStart = n - 20;
    const last = await get({ range: [lastStart, n - 1] }, '&before=end');
    expect(ids(last)).toEqual(ids(await get({ range: [lastStart, n - 1] })));
    expect(last.headers['content-range']).toBe(`users ${lastStart}-${n - 1}/${n}`);
  });

  it('answers a search matching a few pages exactly on each page, past its end and by keyset', async () => {
    await t.app.database.rows(`insert into users (email, first_name, last_name) select 'peek' || i || '@few.example.com', 'Peek', 'Few' from generate_series(1, 15) as i`);
    await t.app.database.rows(`insert into users (email, first_name, last_name) select 'edge' || i || '@sixty.example.com', 'Edge', 'Sixty' from generate_series(1, ${11 + FILTER_PEEK}) as i`);
    const get = (q: string, range: [number, number], extra = '') => call(t.app, 'GET', `/admin/users?${raQuery({ sort: ['email', 'ASC'], filter: { q }, range })}${extra}`, admin);
    const emails = (res: { json(): { payload: { email: string }[] } }) => res.json().payload.map((u) => u.email);
    const first = await get('@few.example', [0, 9]);
    expect(first.headers['content-range']).toBe('users 0-9/15');
    expect(emails(first)).toHaveLength(10);
    const second = await get('@few.example', [10, 19]);
    expect(second.headers['content-range']).toBe('users 10-14/15');
    expect(emails(second)).toEqual(['peek5@few.example.com', 'peek6@few.example.com', 'peek7@few.example.com', 'peek8@few.example.com', 'peek9@few.example.com']);
    // Past the end no row tells the total: it is counted.
    const past = await get('@few.example', [20, 29]);
    expect(past.json().payload).toEqual([]);
    expect(past.headers['content-range']).toBe('users 20-20/15');
    // By keyset only the rows after the key are read: the total is counted too.
    const next = await get('@few.example', [10, 19], `&after=${String(first.headers['x-cursor-last'])}`);
    expect(next.headers['content-range']).toBe('users 10-14/15');
    expect(emails(next)).toEqual(emails(second));
    // A page and its peek filled: the list may go on, so it is counted.
    expect((await get('@sixty.example', [0, 9])).headers['content-range']).toBe(`users 0-9/${11 + FILTER_PEEK}`);
  });

  it('counts a filtered list no further than the cap, answering "10000+"', async () => {
    const res = await call(t.app, 'GET', `/admin/users?${raQuery({ filter: { q: '@lists.example' }, range: [0, 9] })}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('users 0-9/10000+');
    // ra-data-simple-rest reads the total with parseInt: 10000.
    expect(Number.parseInt(String(res.headers['content-range']).split('/')[1] ?? '', 10)).toBe(10_000);
  });

  it('refuses a malformed cursor, or both directions at once, with 400 VALIDATION_FAILED', async () => {
    const bad = await call(t.app, 'GET', `/admin/users?${raQuery({ range: [0, 9] })}&after=not-a-cursor`, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const notUuid = Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url');
    expect((await call(t.app, 'GET', `/admin/users?${raQuery({ range: [0, 9] })}&before=${notUuid}`, admin)).statusCode).toBe(400);
    const page = await call(t.app, 'GET', `/admin/users?${raQuery({ range: [0, 9] })}`, admin);
    const cursor = String(page.headers['x-cursor-last']);
    const both = await call(t.app, 'GET', `/admin/users?${raQuery({ range: [10, 19] })}&after=${cursor}&before=${cursor}`, admin);
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('audits every export with who asked for which rows; a refused export leaves no row', async () => {
    const before = await auditRows(t.app, 'system.export');
    const csv = await call(t.app, 'GET', `/admin/logs/export?format=csv&${raQuery({ sort: ['at', 'DESC'], filter: { q: 'user.lock' } })}`, admin);
    expect(csv.statusCode).toBe(200);
    const rows = await auditRows(t.app, 'system.export');
    expect(rows).toHaveLength(before.length + 1);
    expect(rows.at(-1)).toMatchObject({ actor_email: 'root@example.com', target_type: 'system', target_id: 'logs', after: { resource: 'logs', sort: ['at', 'DESC'], q: 'user.lock' } });
    const refused = await call(t.app, 'GET', `/admin/logs/export?format=csv&${raQuery({ sort: ['nope', 'DESC'] })}`, admin);
    expect(refused.statusCode).toBe(400);
    expect(await auditRows(t.app, 'system.export')).toHaveLength(before.length + 1);
  });
});
