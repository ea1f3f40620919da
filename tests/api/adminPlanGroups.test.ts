import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, auditRows, call, raQuery, ROOT } from '../support/admin';
import { BASIC, companyOwner, FREE, loadCatalogue, STARTER } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let other: Awaited<ReturnType<typeof companyOwner>>;
let cat: Awaited<ReturnType<typeof loadCatalogue>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  admin = await adminCookie(t.app);
  owner = await companyOwner(t.app, 'pg-owner@example.com');
  other = await companyOwner(t.app, 'pg-other@example.com');
  cat = await loadCatalogue(t.app);
});
afterAll(() => t.close());

const companyPlans = async (who: { cookie: string; companyId: string }) =>
  (await call(t.app, 'GET', `/plangroups/company/${who.companyId}/plans`, who.cookie)).json().payload.map((p: { code: string }) => p.code) as string[];

describe('plan groups', () => {
  it("creates a group, chooses its plans in the editor, assigns a company: that company's plans are the group's", async () => {
    const publicCodes = await companyPlans(owner);
    expect(publicCodes.length).toBeGreaterThan(3);

    const created = await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Partners', description: 'Resellers' });
    expect(created.statusCode).toBe(201);
    const id = created.json().payload._id as string;
    expect(created.json().payload).toMatchObject({ name: 'Partners', plans: 0, companies: 0, planIds: [], companyIds: [] });

    const editor = (await call(t.app, 'GET', `/admin/plan-groups/${id}/editor`, admin)).json().payload;
    expect(editor.plans.length).toBeGreaterThanOrEqual(publicCodes.length);
    expect(editor.plans.every((p: { selected: boolean }) => !p.selected)).toBe(true);
    expect(editor.plans.find((p: { code: string }) => p.code === STARTER)).toMatchObject({ monthlyPrice: expect.stringMatching(/^\d+\.\d{2}$/) });

    const planIds = [cat.plan(FREE), cat.plan(BASIC)];
    const updated = await call(t.app, 'PUT', `/admin/plan-groups/${id}`, admin, { id, name: 'Partners', description: 'Resellers', planIds, companyIds: [owner.companyId] });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().payload).toMatchObject({ plans: 2, companies: 1, planIds: [...planIds].sort(), companyIds: [owner.companyId] });

    expect((await companyPlans(owner)).sort()).toEqual([BASIC, FREE].sort());
    expect(await companyPlans(other)).toEqual(publicCodes);
    const after = (await call(t.app, 'GET', `/admin/plan-groups/${id}/editor`, admin)).json().payload;
    expect(after.plans.filter((p: { selected: boolean }) => p.selected).map((p: { code: string }) => p.code).sort()).toEqual([BASIC, FREE].sort());
    expect(after.companies).toEqual([{ _id: owner.companyId, name: 'Company of pg-owner' }]);

    expect(await auditRows(t.app, 'planGroup.create')).toEqual([expect.objectContaining({ actor_email: ROOT.email, target_id: id, after: { name: 'Partners', description: 'Resellers' } })]);
    expect(await auditRows(t.app, 'planGroup.update')).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ planIds: [], companyIds: [] }), after: expect.objectContaining({ planIds: [...planIds].sort(), companyIds: [owner.companyId] }) }),
    ]);

    // Listed with its counts; searched; exported.
    const list = await call(t.app, 'GET', `/admin/plan-groups?${raQuery({ filter: { q: 'partn' } })}`, admin);
    expect(list.headers['content-range']).toBe('plan-groups 0-0/1');
    expect(list.json().payload[0]).toMatchObject({ name: 'Partners', plans: 2, companies: 1 });
    const csv = (await call(t.app, 'GET', `/admin/plan-groups/export?format=csv&${raQuery({ filter: { q: 'partners' } })}`, admin)).body.trimEnd().split('\n');
    expect(csv).toEqual(['ID,Name,Description,Plans,Companies,Created', expect.stringContaining(',Partners,Resellers,2,1,')]);

    // Deleting the group gives the company the public plans back.
    expect((await call(t.app, 'DELETE', `/admin/plan-groups/${id}`, admin)).statusCode).toBe(200);
    expect(await companyPlans(owner)).toEqual(publicCodes);
    expect(await auditRows(t.app, 'planGroup.delete')).toHaveLength(1);
  });

  it('refuses a taken name, unknown plans or companies and non-admins, changing nothing', async () => {
    const id = (await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Gold' })).json().payload._id as string;
    const before = await tableCounts(t.app);
    const taken = await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'Gold' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('PLAN_GROUP_NAME_TAKEN');
    expect((await call(t.app, 'POST', '/admin/plan-groups', admin, { name: 'E' })).statusCode).toBe(400);
    const body = { name: 'Gold', description: '' };
    expect((await call(t.app, 'PUT', `/admin/plan-groups/${id}`, admin, { ...body, planIds: ['00000000-0000-0000-0000-000000000000'] })).statusCode).toBe(400);
    expect((await call(t.app, 'PUT', `/admin/plan-groups/${id}`, admin, { ...body, planIds: [cat.plan(FREE)], companyIds: ['nope'] })).statusCode).toBe(400);
    expect((await call(t.app, 'PUT', '/admin/plan-groups/00000000-0000-0000-0000-000000000000', admin, body)).statusCode).toBe(404);
    expect((await call(t.app, 'POST', '/admin/plan-groups', owner.cookie, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(t.app, 'PUT', `/admin/plan-groups/${id}`, owner.cookie, { ...body, companyIds: [owner.companyId] })).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call(t.app, 'GET', `/admin/plan-groups/${id}`, admin)).json().payload).toMatchObject({ planIds: [], companyIds: [] });
  });
});
