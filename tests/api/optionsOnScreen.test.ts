import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsIncludeCustomDomain } from '../../src/domain/deployments/schemas';
import { call } from '../support/admin';
import { changeBody, companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { populated } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * The screens follow what the server allows. The server page reads, from the view,
 * whether the options include a custom domain (else it offers the upgrade) and a paid change of
 * plan waiting for its payment (the server keeps its plan meanwhile).
 */

let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'options-owner@example.com');
});
afterAll(() => t.close());

describe('the server view gates the actions the screens offer', () => {
  it('says a hosted-subdomain server has no custom domain, and the server refuses one, changing nothing', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Subdomain only' }))).json().payload._id as string;
    const view = await populated(t.app, owner.cookie, id);
    expect(view.features.filter((f) => f.type === 'domain').map((f) => f.code)).toEqual(['domain.default']);
    expect(optionsIncludeCustomDomain(view.features)).toBe(false);
    // As if the worker had provisioned it: running on a machine, no task open.
    await t.app.database.rows(`update deployments set status = 'running' where id = '${id}'`);
    await t.app.database.rows(`update deployment_tasks set status = 'completed' where deployment_id = '${id}'`);
    await t.app.database.rows(`insert into deployment_runtime (deployment_id, machine_id, url) values ('${id}', 'm-opt', 'https://x.example') on conflict (deployment_id) do update set machine_id = excluded.machine_id`);
    const before = await tableCounts(t.app);
    const res = await call(t.app, 'POST', `/deployments/${id}/update-domain`, owner.cookie, { domain: 'stats.example.org' });
    expect(res.json()).toMatchObject({ code: 'DOMAIN_NOT_IN_PLAN' });
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await populated(t.app, owner.cookie, id)).domain?.custom ?? false).toBe(false);

    const withDomain = orderBody(cat, owner, { name: 'Own domain', planConfig: { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m'), cat.feature('backup.daily')] } });
    const own = (await postOrder(t.app, owner.cookie, withDomain)).json().payload._id as string;
    expect(optionsIncludeCustomDomain((await populated(t.app, owner.cookie, own)).features)).toBe(true);
  });

  it('shows a paid change of plan as waiting for its payment; the plan is the one the server has until paid', async () => {
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Waiting change' }))).json().payload._id as string;
    expect((await populated(t.app, owner.cookie, id)).pendingPlan).toBeNull();
    expect((await call(t.app, 'PUT', `/deployments/${id}`, owner.cookie, changeBody(cat, owner, { planCode: STARTER }))).statusCode).toBe(200);
    const waiting = await populated(t.app, owner.cookie, id);
    expect(waiting.plan.code).toBe(FREE);
    // The edit wizard starts from the subscription's plan (ServerBuilder): the one the server has.
    expect([waiting.subscription.planCode, waiting.subscription.plan]).toEqual([FREE, waiting.plan._id]);
    expect(waiting.pendingPlan).toMatchObject({ code: STARTER, name: expect.stringMatching(/\S/) });
    expect(waiting.pendingPlan?.name).not.toBe(STARTER);
    // The list the dashboard reads says the same.
    const listed = (await call(t.app, 'GET', `/deployments?company=${owner.companyId}&project=${owner.projectId}`, owner.cookie)).json().payload as { _id: string; pendingPlan: unknown }[];
    expect(listed.find((d) => d._id === id)?.pendingPlan).toMatchObject({ code: STARTER });

    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    const paid = await populated(t.app, owner.cookie, id);
    expect(paid.plan.code).toBe(STARTER);
    expect(paid.pendingPlan).toBeNull();
  });
});
