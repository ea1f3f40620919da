import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSignInPath } from '../../src/domain/deployments/schemas';
import { adminCookie, auditRows, call, raQuery, ROOT } from '../support/admin';
import { companyOwner, addMember } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
let owner: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  admin = await adminCookie(t.app);
  owner = await companyOwner(t.app, 'owner@example.com');
  await addMember(t.app, owner.companyId, 'viewer@example.com', 'viewer');
  // 300 more companies: sizes in turn, older and older, every tenth with a paid server.
  await t.app.database.rows(`insert into companies (name, size, created_at)
    select 'Bulk ' || lpad(i::text, 3, '0'), (array['1-10','11-50','51-200'])[1 + i % 3], now() - (i || ' days')::interval from generate_series(1, 300) as i`);
  await t.app.database.rows(`insert into projects (company_id, name) select id, 'Default project' from companies where name like 'Bulk %'`);
  await t.app.database.rows(`insert into deployments (name, provider_id, plan_id, plan_code, plan_config, payment_cycle, free, company_id, project_id, status)
    select 'srv', (select id from providers limit 1), (select id from plans limit 1), 'v3.mau_1_000_gcp.base', '{}'::jsonb, 'month', false, c.id, p.id, 'running'
    from companies c join projects p on p.company_id = c.id where c.name like 'Bulk %' and right(c.name, 1) = '0'`);
  await t.app.database.rows(`insert into subscriptions (deployment_id, company_id, vendor, status, cycle, quote)
    select d.id, d.company_id, 'paddle', 'active', 'month', '{}'::jsonb from deployments d join companies c on c.id = d.company_id where c.name like 'Bulk %'`);
});
afterAll(() => t.close());

const list = (query: Record<string, unknown>, cookie = admin) => call(t.app, 'GET', `/admin/companies?${raQuery(query)}`, cookie);
const names = (res: { json(): { payload: { name: string }[] } }) => res.json().payload.map((c) => c.name);

describe('admin companies list', () => {
  it('pages with Content-Range, sorts by each sortable column and searches', async () => {
    const res = await list({ sort: ['name', 'ASC'], range: [0, 4] });
    expect(res.headers['content-range']).toBe('companies 0-4/301');
    expect(names(res)).toEqual(['Bulk 001', 'Bulk 002', 'Bulk 003', 'Bulk 004', 'Bulk 005']);
    expect(names(await list({ sort: ['name', 'DESC'], range: [0, 0] }))).toEqual(['Company of owner']);
    expect(names(await list({ sort: ['createdAt', 'DESC'], range: [0, 0] }))).toEqual(['Company of owner']);
    const byMembers = (await list({ sort: ['members', 'DESC'], range: [0, 0] })).json().payload[0];
    expect(byMembers).toMatchObject({ name: 'Company of owner', members: 2 });
    expect((await list({ sort: ['servers', 'DESC'], range: [0, 0] })).json().payload[0].servers).toBe(1);
    expect((await list({ sort: ['size', 'ASC'], range: [0, 0] })).json().payload[0].size).toBeNull();
    expect(names(await list({ filter: { q: 'bulk 29' }, sort: ['name', 'ASC'] }))).toEqual(['Bulk 290', 'Bulk 291', 'Bulk 292', 'Bulk 293', 'Bulk 294', 'Bulk 295', 'Bulk 296', 'Bulk 297', 'Bulk 298', 'Bulk 299']);
    expect((await list({ range: [295, 400] })).headers['content-range']).toBe('companies 295-300/301');
  });

  it('counts as paid only servers paid for: not one awaiting its first payment, a free one or one being deleted', async () => {
    const [c] = await t.app.database.rows<{ id: string }>(`insert into companies (name) values ('Counting Co') returning id`);
    const [p] = await t.app.database.rows<{ id: string }>(`insert into projects (company_id, name) values ('${c?.id}', 'Default project') returning id`);
    const server = async (name: string, free: boolean, status: string, subscription: string | null, deleting = false) => {
      const [d] = await t.app.database.rows<{ id: string }>(`insert into deployments (name, provider_id, plan_id, plan_code, plan_config, payment_cycle, free, company_id, project_id, status)
        values ('${name}', (select id from providers limit 1), (select id from plans limit 1), 'v3.mau_1_000_gcp.base', '{}'::jsonb, 'month', ${free}, '${c?.id}', '${p?.id}', '${status}') returning id`);
      if (subscription) await t.app.database.rows(`insert into subscriptions (deployment_id, company_id, vendor, status, cycle, quote) values ('${d?.id}', '${c?.id}', '${free ? 'free' : 'paddle'}', '${subscription}', 'month', '{}'::jsonb)`);
      if (deleting) await t.app.database.rows(`insert into deployment_runtime (deployment_id, termination_scheduled_at) values ('${d?.id}', now() + interval '7 days')`);
      return d?.id ?? '';
    };
    const pending = await server('Awaiting payment', false, 'provisioned', 'pending');
    await server('Free', true, 'running', 'active');
    await server('Deleting', false, 'running', 'active', true);
    await server('Canceled', false, 'running', 'canceled');
    const row = async () => (await list({ filter: { q: 'Counting Co' } })).json().payload[0];
    expect(await row()).toMatchObject({ name: 'Counting Co', servers: 4, paidServers: 0 });
    // "Has paid servers = No" finds it; "Yes" does not.
    expect(names(await list({ filter: { q: 'Counting Co', hasPaidServers: false } }))).toEqual(['Counting Co']);
    expect(names(await list({ filter: { q: 'Counting Co', hasPaidServers: true } }))).toEqual([]);
    // Paid for at last: now it counts.
    await t.app.database.rows(`update subscriptions set status = 'active' where deployment_id = '${pending}'`);
    expect(await row()).toMatchObject({ servers: 4, paidServers: 1 });
    expect(names(await list({ filter: { q: 'Counting Co', hasPaidServers: true } }))).toEqual(['Counting Co']);
    await t.app.database.rows(`delete from companies where id = '${c?.id}'`);
  });

  it('filters by size, creation date and paid servers, and answers getMany by ids', async () => {
    expect((await list({ filter: { size: '11-50' } })).headers['content-range']).toBe('companies 0-9/100');
    expect((await list({ filter: { hasPaidServers: true } })).headers['content-range']).toBe('companies 0-9/30');
    expect((await list({ filter: { hasPaidServers: false, size: '1-10' } })).headers['content-range']).toBe('companies 0-9/90');
    const since = new Date(Date.now() - 10.5 * 86_400_000).toISOString();
    expect((await list({ filter: { createdFrom: since } })).headers['content-range']).toBe('companies 0-9/11');
    const until = new Date(Date.now() - 299.5 * 86_400_000).toISOString();
    expect(names(await list({ filter: { createdTo: until }, sort: ['name', 'ASC'] }))).toEqual(['Bulk 300']);
    expect(names(await list({ filter: { id: [owner.companyId, 'bogus'] } }))).toEqual(['Company of owner']);
    // A bare date takes in the whole day.
    expect((await list({ filter: { createdTo: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) } })).headers['content-range']).toBe('companies 0-9/301');
    expect((await list({ filter: { hasPaidServers: 'maybe' } })).statusCode).toBe(400);
    expect((await list({ filter: { createdTo: 'yesterday' } })).statusCode).toBe(400);
    expect((await list({ sort: ['billingCountry', 'ASC'] })).statusCode).toBe(400);
  });

  it('exports every matching company, streamed, in the list order', async () => {
    const res = await call(t.app, 'GET', `/admin/companies/export?format=csv&${raQuery({ sort: ['name', 'DESC'], filter: { hasPaidServers: true } })}`, admin);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe('ID,Name,Size,Created,Members,Servers,Paid servers,Plan group');
    expect(lines).toHaveLength(31);
    expect(lines[1]).toContain('Bulk 300');
    const json = JSON.parse((await call(t.app, 'GET', `/admin/companies/export?format=json&${raQuery({ sort: ['members', 'ASC'] })}`, admin)).body) as { members: number }[];
    expect(json).toHaveLength(301);
    expect(json.at(-1)?.members).toBe(2);
  });
});

describe('admin company page', () => {
  it('shows members, projects, servers and subscriptions', async () => {
    const res = await call(t.app, 'GET', `/admin/companies/${owner.companyId}`, admin);
    expect(res.statusCode).toBe(200);
    const company = res.json().payload;
    expect(company).toMatchObject({ _id: owner.companyId, name: 'Company of owner', members: 2, planGroupId: null, deployments: [], subscriptions: [] });
    expect(company.people.map((p: { email: string; role: string }) => `${p.email}:${p.role}`)).toEqual(['owner@example.com:admin', 'viewer@example.com:viewer']);
    expect(company.projects).toHaveLength(1);
    expect((await call(t.app, 'GET', '/admin/companies/00000000-0000-0000-0000-000000000000', admin)).statusCode).toBe(404);
  });

  it('renames and sets the plan group, audited with before and after; bad input changes nothing', async () => {
    const group = await t.app.database.rows<{ id: string }>("insert into plan_groups (name) values ('Partners') returning id");
    const groupId = group[0]?.id ?? '';
    const res = await call(t.app, 'PUT', `/admin/companies/${owner.companyId}`, admin, { id: owner.companyId, name: 'Owner Inc', planGroupId: groupId, members: 99 });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ name: 'Owner Inc', planGroupId: groupId, planGroupName: 'Partners', members: 2 });
    expect(await auditRows(t.app, 'company.update')).toContainEqual(
      expect.objectContaining({ actor_email: ROOT.email, target_id: owner.companyId, before: { name: 'Company of owner', planGroupId: null }, after: { name: 'Owner Inc', planGroupId: groupId } }),
    );
    const before = await tableCounts(t.app);
    const auditBefore = (await auditRows(t.app, 'company.update')).length;
    expect((await call(t.app, 'PUT', `/admin/companies/${owner.companyId}`, admin, { name: 'X', planGroupId: null })).statusCode).toBe(400);
    expect((await call(t.app, 'PUT', `/admin/companies/${owner.companyId}`, admin, { name: 'Fine name', planGroupId: '00000000-0000-0000-0000-000000000000' })).statusCode).toBe(400);
    expect((await call(t.app, 'PUT', `/admin/companies/${owner.companyId}`, owner.cookie, { name: 'Fine name', planGroupId: null })).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await auditRows(t.app, 'company.update')).toHaveLength(auditBefore);
    const read = (await call(t.app, 'GET', `/admin/companies/${owner.companyId}`, admin)).json().payload;
    expect(read).toMatchObject({ name: 'Owner Inc', planGroupId: groupId });
    await call(t.app, 'PUT', `/admin/companies/${owner.companyId}`, admin, { name: 'Company of owner', planGroupId: null });
  });
});

describe('view as the company admin, read-only', () => {
  it('reads as the company admin, refuses every change, ends, and audits both ends', async () => {
    const res = await call(t.app, 'POST', `/admin/companies/${owner.companyId}/view-as`, admin, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ companyId: owner.companyId, projectId: owner.projectId, userEmail: 'owner@example.com' });

    const me = (await call(t.app, 'GET', '/auth/me', admin)).json().payload;
    expect(me).toMatchObject({ email: 'owner@example.com', isAdmin: false, viewAs: { adminEmail: ROOT.email, companyId: owner.companyId } });
    expect((await call(t.app, 'GET', `/companies/${owner.companyId}`, admin)).json().payload.role).toBe('admin');
    // The admin area is closed while viewing: the session acts as a customer.
    expect((await call(t.app, 'GET', '/admin/users', admin)).statusCode).toBe(403);

    const before = await tableCounts(t.app);
    for (const [method, url, body] of [
      ['PUT', `/companies/${owner.companyId}`, { name: 'Hijacked' }],
      ['POST', `/companies/${owner.companyId}/invitations`, { email: 'x@example.com', role: 'admin' }],
      ['DELETE', '/auth/me', { password: 'whatever' }],
      ['POST', '/auth/set-password', { oldPassword: 'a', password: 'Tr1cky-Lantern2' }],
      ['POST', `/admin/companies/${owner.companyId}/view-as`, {}],
      // A GET that acts (it mints a sign-in link), under the path the product name gives it.
      ['GET', `${serverSignInPath(t.config.PRODUCT_NAME)}?deploymentId=${owner.companyId}&userId=${owner.companyId}`, undefined],
    ] as const) {
      const refused = await call(t.app, method, url, admin, body);
      expect(refused.json().code, `${method} ${url}`).toBe('VIEW_AS_READ_ONLY');
    }
    expect(await tableCounts(t.app)).toEqual(before);

    expect((await call(t.app, 'DELETE', '/view-as', admin)).statusCode).toBe(200);
    const back = (await call(t.app, 'GET', '/auth/me', admin)).json().payload;
    expect(back).toMatchObject({ email: ROOT.email, isAdmin: true });
    expect(back.viewAs).toBeUndefined();
    expect((await call(t.app, 'GET', '/admin/users', admin)).statusCode).toBe(200);
    expect(await auditRows(t.app, 'company.viewAs')).toEqual([expect.objectContaining({ actor_email: ROOT.email, target_id: owner.companyId, after: { viewingAs: 'owner@example.com' } })]);
    expect(await auditRows(t.app, 'company.viewAsEnd')).toEqual([expect.objectContaining({ actor_email: ROOT.email, target_id: owner.companyId })]);
  });

  it('is for platform admins only, and needs a company with an admin', async () => {
    const before = await tableCounts(t.app);
    expect((await call(t.app, 'POST', `/admin/companies/${owner.companyId}/view-as`, owner.cookie, {})).statusCode).toBe(403);
    const [orphan] = await t.app.database.rows<{ id: string }>("select id from companies where name = 'Bulk 001'");
    expect((await call(t.app, 'POST', `/admin/companies/${orphan?.id}/view-as`, admin, {})).json().code).toBe('NO_COMPANY_ADMIN');
    expect(await tableCounts(t.app)).toEqual(before);
    // The company's page says beforehand whom the view opens as, or why it would be refused.
    expect((await call(t.app, 'GET', `/admin/companies/${owner.companyId}`, admin)).json().payload.viewAs).toEqual({ email: 'owner@example.com', refused: null });
    expect((await call(t.app, 'GET', `/admin/companies/${orphan?.id}`, admin)).json().payload.viewAs).toEqual({ email: null, refused: 'NO_COMPANY_ADMIN' });
    // A company the platform admin runs is opened as themselves, not viewed.
    const own = (await call(t.app, 'POST', '/companies?onboarding=1', admin, { name: 'Root Co' })).json().payload as { _id: string };
    expect((await call(t.app, 'GET', `/admin/companies/${own._id}`, admin)).json().payload.viewAs).toEqual({ email: ROOT.email, refused: 'CANNOT_ACT_ON_SELF' });
    expect((await call(t.app, 'POST', `/admin/companies/${own._id}/view-as`, admin, {})).json().code).toBe('CANNOT_ACT_ON_SELF');
    // Ending a view that is not there is harmless.
    expect((await call(t.app, 'DELETE', '/view-as', owner.cookie)).statusCode).toBe(200);
  });
});
