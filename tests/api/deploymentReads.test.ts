import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_STATUSES } from '../../src/domain/orders/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';
import { eq } from 'drizzle-orm';
import { deployments } from '../../server/db/schema';
import { deploymentViewRow, deploymentViewRowsWith, thisMonth } from '../../server/services/deploymentViews';

let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let stranger: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'reads-owner@example.com');
  stranger = await companyOwner(t.app, 'reads-stranger@example.com');
});
afterAll(() => t.close());

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie } });

describe('GET /deployments and /deployments/{id}/populated', () => {
  it('lists the company servers with their subscription, and reads one', async () => {
    const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Listed Server' }))).json().payload;
    const list = await get(owner.cookie, `/deployments?company=${owner.companyId}&project=${owner.projectId}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().payload).toEqual([expect.objectContaining({ _id: created._id, name: 'Listed Server', flags: { free: true }, billing: expect.objectContaining({ status: 'active', vendor: 'free' }) })]);
    const one = await get(owner.cookie, `/deployments/${created._id}/populated`);
    expect(one.json().payload).toMatchObject({ _id: created._id, subscription: { planCode: FREE, payment: { term: { cycle: 'month' } } }, mauHistory: [] });
    // Its MAU history comes in the same read, oldest month first, this month's figure beside the view.
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const before = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 1));
    for (const [startsAt, used] of [[month, 42], [before, 17]] as const) {
      const endsAt = new Date(Date.UTC(startsAt.getUTCFullYear(), startsAt.getUTCMonth() + 1, 1) - 1);
      await t.app.database.rows(`insert into mau_history (deployment_id, used, starts_at, ends_at) values ('${created._id}', ${used}, '${startsAt.toISOString()}', '${endsAt.toISOString()}')`);
    }
    const withHistory = (await get(owner.cookie, `/deployments/${created._id}/populated`)).json().payload;
    expect(withHistory.mauHistory).toEqual([
      { used: 17, startsAt: before.toISOString(), endsAt: expect.any(String), subscriptionId: null },
      { used: 42, startsAt: month.toISOString(), endsAt: expect.any(String), subscriptionId: null },
    ]);
    expect(withHistory.mau).toMatchObject({ used: 42 });
  });

  it('pages, sorts and filters the list on the server when a range is asked, with the total in Content-Range', async () => {
    const paid = orderBody(cat, owner, { name: 'Paged C' });
    for (const body of [orderBody(cat, owner, { planCode: FREE, name: 'Paged B' }), orderBody(cat, owner, { planCode: FREE, name: 'Paged A' }), paid]) {
      expect((await postOrder(t.app, owner.cookie, body)).statusCode).toBeLessThan(300);
    }
    const page = (q: Record<string, unknown>) => get(owner.cookie, `/deployments?company=${owner.companyId}&${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, JSON.stringify(v)]))}`);
    const first = await page({ range: [0, 1], sort: ['name', 'ASC'], filter: { q: 'paged' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-range']).toBe('deployments 0-1/3');
    expect(first.json().payload.map((d: { name: string }) => d.name)).toEqual(['Paged A', 'Paged B']);
    const second = await page({ range: [2, 3], sort: ['name', 'ASC'], filter: { q: 'paged' } });
    expect(second.headers['content-range']).toBe('deployments 2-2/3');
    expect(second.json().payload).toEqual([expect.objectContaining({ name: 'Paged C', plan: expect.objectContaining({ code: expect.any(String) }), billing: expect.any(Object) })]);
    const newest = await page({ range: [0, 0], filter: { q: 'paged' } });
    expect(newest.json().payload.map((d: { name: string }) => d.name)).toEqual(['Paged C']);
    // A filter by status, by project and a sort by status: each its own statement.
    type Row = { name: string; status: string };
    const all = (await page({ range: [0, 9], filter: { q: 'paged' } })).json<{ payload: Row[] }>().payload;
    const status = all[0]?.status ?? '';
    const byStatus = await page({ range: [0, 9], filter: { q: 'paged', status } });
    expect(byStatus.json<{ payload: Row[] }>().payload.map((d) => d.name).sort()).toEqual(all.filter((d) => d.status === status).map((d) => d.name).sort());
    const inProject = await get(owner.cookie, `/deployments?company=${owner.companyId}&project=${owner.projectId}&range=${encodeURIComponent('[0,9]')}&filter=${encodeURIComponent('{"q":"paged"}')}`);
    expect([inProject.json<{ payload: Row[] }>().payload.length, inProject.headers['content-range']]).toEqual([3, 'deployments 0-2/3']);
    const otherProject = await get(owner.cookie, `/deployments?company=${owner.companyId}&project=${randomUUID()}&range=${encodeURIComponent('[0,9]')}`);
    expect([otherProject.json<{ payload: Row[] }>().payload, otherProject.headers['content-range']]).toEqual([[], 'deployments 0-0/0']);
    const byStatusSort = (await page({ range: [0, 9], sort: ['status', 'DESC'], filter: { q: 'paged' } })).json<{ payload: Row[] }>().payload;
    // Statuses sort in their lifecycle order (the database's enum), newest stage first.
    const rank = (d: Row) => DEPLOYMENT_STATUSES.indexOf(d.status as (typeof DEPLOYMENT_STATUSES)[number]);
    expect(byStatusSort.map(rank)).toEqual(all.map(rank).sort((a, b) => b - a));
    // Past the last page, and a search that finds nothing: no rows, and still the total.
    const past = await page({ range: [4, 5], sort: ['name', 'ASC'], filter: { q: 'paged' } });
    expect([past.statusCode, past.json().payload, past.headers['content-range']]).toEqual([200, [], 'deployments 4-4/3']);
    const none = await page({ range: [0, 9], filter: { q: 'no such server' } });
    expect([none.statusCode, none.json().payload, none.headers['content-range']]).toEqual([200, [], 'deployments 0-0/0']);
    // A stranger gets 403, also for a page that would be empty.
    expect((await get(stranger.cookie, `/deployments?company=${owner.companyId}&${new URLSearchParams({ range: '[4,5]', filter: JSON.stringify({ q: 'no such server' }) })}`)).statusCode).toBe(403);
    expect((await page({ range: [0, 9], sort: ['price', 'ASC'] })).statusCode).toBe(400);
    expect((await page({ range: [0, 5000] })).statusCode).toBe(400);
    const refused = await get(stranger.cookie, `/deployments?company=${owner.companyId}&range=${encodeURIComponent('[0,9]')}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-range']).toBeUndefined();
  });

  it('refuses a stranger the list and the server', async () => {
    const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Private Server' }))).json().payload;
    expect((await get(stranger.cookie, `/deployments?company=${owner.companyId}`)).statusCode).toBe(403);
    expect((await get(stranger.cookie, `/deployments/${created._id}/populated`)).statusCode).toBe(403);
    expect((await get(owner.cookie, '/deployments')).statusCode).toBe(400);
  });

  it('maps a prepared view row exactly as drizzle maps the same query, a missing joined part as null', async () => {
    const { db } = t.app.database;
    const bare = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Mapped Bare' }))).json().payload;
    const full = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Mapped Full' }))).json().payload;
    // The second has every part: a runtime row, a task (the order's) and this month's MAU.
    await t.app.database.rows(`insert into deployment_runtime (deployment_id, default_domain) values ('${full._id}', 'mapped.example.com') on conflict do nothing`);
    await t.app.database.rows(`insert into mau_history (deployment_id, used, starts_at, ends_at) values ('${full._id}', 7, '${thisMonth().toISOString()}', '${new Date(thisMonth().getTime() + 86_400_000).toISOString()}')`);
    await t.app.database.rows(`delete from deployment_tasks where deployment_id = '${bare._id}'`);
    for (const id of [bare._id, full._id]) {
      const [byDrizzle] = await deploymentViewRowsWith(db, {}, thisMonth()).where(eq(deployments.id, id));
      const mapped = await deploymentViewRow(db, id);
      expect(mapped).toEqual(byDrizzle);
    }
    const [bareRow, fullRow] = [await deploymentViewRow(db, bare._id), await deploymentViewRow(db, full._id)];
    expect(bareRow).toMatchObject({ runtime: null, task: null, mau: null, deployment: { name: 'Mapped Bare', createdAt: expect.any(Date) } });
    expect(fullRow).toMatchObject({ runtime: { defaultDomain: 'mapped.example.com' }, task: { type: expect.any(String) }, mau: { used: 7 }, subscription: { quote: expect.any(Object) } });
  });

  it('keeps the total of a list only until one of its servers is added, renamed or deleted', async () => {
    const total = async () => (await get(owner.cookie, `/deployments?company=${owner.companyId}&range=${encodeURIComponent('[0,0]')}&filter=${encodeURIComponent('{"q":"counted"}')}`)).headers['content-range']?.split('/')[1];
    expect(await total()).toBe('0');
    const first = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Counted One' }))).json().payload;
    expect(await total()).toBe('1');
    await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Counted Two' }));
    expect(await total()).toBe('2');
    await t.app.database.rows(`update deployments set name = 'Renamed' where id = '${first._id}'`);
    expect(await total()).toBe('1');
    await t.app.database.rows(`update deployments set status = 'deleted' where name = 'Counted Two'`);
    expect(await total()).toBe('0');
  });
});
