import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

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
    expect(one.json().payload).toMatchObject({ _id: created._id, subscription: { planCode: FREE, payment: { term: { cycle: 'month' } } } });
  });

  it('refuses a stranger the list and the server', async () => {
    const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Private Server' }))).json().payload;
    expect((await get(stranger.cookie, `/deployments?company=${owner.companyId}`)).statusCode).toBe(403);
    expect((await get(stranger.cookie, `/deployments/${created._id}/populated`)).statusCode).toBe(403);
    expect((await get(owner.cookie, '/deployments')).statusCode).toBe(400);
  });
});
