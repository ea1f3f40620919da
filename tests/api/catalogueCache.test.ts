import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanDto } from '../../src/domain/plans/schemas';
import { adminCookie, call } from '../support/admin';
import { FREE, loadCatalogue, STARTER, type Catalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

// The public catalogue, configurables and visitor pricing answers are kept in memory until the
// catalogue changes. These tests change the database behind the cache's back (a connection of
// its own, which the catalogue feed does not see), check the old answer is still served, then
// make an admin change through the API: the next request must see the new catalogue at once.

let t: TestApp;
let admin: string;
let cat: Catalogue;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminCookie(t.app);
  cat = await loadCatalogue(t.app);
});
afterAll(() => t.close());

/** A write the process does not see: another process's, as far as the cache can tell. */
async function writeUnseen(statement: string): Promise<void> {
  const { pglite, url } = t.app.database;
  if (pglite) {
    await pglite.query(statement);
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}` });
const starterName = async () => (await get('/plans/public')).json<{ payload: PlanDto[] }>().payload.find((p) => p.code === STARTER)?.name;
const price = async () =>
  (await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: { plan: cat.plan(STARTER), planConfig: { region: cat.region('us-central1'), features: [] }, payment: { term: { cycle: 'month' } } } })).json()
    .payload.total.amount as string;

describe('the catalogue cache', () => {
  it('is dropped by an admin change to plan groups: the next catalogue, configurables and pricing answers are fresh', async () => {
    const plans = await get('/plans/public');
    const configurables = await get('/plans/configurables/public/gcp');
    expect(await price()).toBe('49.00');

    await writeUnseen(`update plans set name = 'Starter Plus', base_price_cents = 5900 where code = '${STARTER}'`);
    await writeUnseen(`update regions set name = 'Iowa (changed)' where code = 'us-central1'`);
    // Kept: the write went around this process.
    expect((await get('/plans/public')).headers.etag).toBe(plans.headers.etag);
    expect(await price()).toBe('49.00');

    const created = await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Resellers', description: '' });
    expect(created.statusCode).toBe(201);

    const after = await get('/plans/public');
    expect(after.headers.etag).not.toBe(plans.headers.etag);
    expect(await starterName()).toBe('Starter Plus');
    const configurablesAfter = await get('/plans/configurables/public/gcp');
    expect(configurablesAfter.headers.etag).not.toBe(configurables.headers.etag);
    expect(configurablesAfter.body).toContain('Iowa (changed)');
    expect(await price()).toBe('59.00');
  });

  it("is dropped by the plan group editor's choice of plans and by deleting a group", async () => {
    const id = (await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Partners', description: '' })).json().payload._id as string;
    const before = await get('/plans/public');
    await writeUnseen(`update plans set name = 'Starter Again' where code = '${STARTER}'`);
    expect((await get('/plans/public')).headers.etag).toBe(before.headers.etag);

    const updated = await call(t.app, 'PUT', `/admin/plan-groups/${id}`, admin, { id, name: 'Partners', description: '', planIds: [cat.plan(FREE)] });
    expect(updated.statusCode).toBe(200);
    expect(await starterName()).toBe('Starter Again');

    const etag = (await get('/plans/public')).headers.etag;
    await writeUnseen(`update plans set name = 'Starter Once More' where code = '${STARTER}'`);
    expect((await get('/plans/public')).headers.etag).toBe(etag);
    expect((await call(t.app, 'DELETE', `/admin/plan-groups/${id}`, admin)).statusCode).toBe(200);
    expect(await starterName()).toBe('Starter Once More');
  });

  it('is dropped by any write to a catalogue table through the app, with no call to remember', async () => {
    const before = await get('/plans/public');
    await t.app.database.rows(`update plan_regions set price_cents = price_cents + 100 where plan_id = '${cat.plan(STARTER)}'`);
    const after = await get('/plans/public');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
