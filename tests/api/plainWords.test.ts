import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { createAdminCompanyService } from '../../server/services/adminCompanies';
import type { AdminCompanyDetail, AuditLogRow } from '../../src/domain/admin/schemas';
import type { AdminDeploymentRow } from '../../src/domain/admin/deployments';
import { adminCookie, call, raQuery, ROOT } from '../support/admin';
import { companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, populated, settledIn } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// The admin area in the customer's words: plans by name, payments by who took them, log targets by name.
let t: TestApp;
let cat: Catalogue;
let admin: string;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let paid: { _id: string };
let deleting: { _id: string };
let free: { _id: string };

async function order(name: string, planCode: string) {
  const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode, name }))).json().payload as { _id: string };
  if (planCode !== FREE) expect((await pay(t.app, owner.cookie, created._id)).statusCode).toBe(200);
  await settledIn(t.app, owner.cookie, created._id, 'running');
  return created;
}

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, PAYMENTS_STAND_IN: 'true', DELETION_GRACE_SECONDS: '3600', AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  admin = await adminCookie(t.app);
  owner = await companyOwner(t.app, 'plain@example.com');
  paid = await order('Paid Server', STARTER);
  deleting = await order('Leaving Server', STARTER);
  free = await order('Free Server', FREE);
  expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${deleting._id}`)).statusCode).toBe(200);
});
afterAll(() => t.close());

const companyPage = async () => (await call(t.app, 'GET', `/admin/companies/${owner.companyId}`, admin)).json<{ payload: AdminCompanyDetail }>().payload;
const servers = async (query: Record<string, unknown>) => (await call(t.app, 'GET', `/admin/deployments?${raQuery(query)}`, admin)).json<{ payload: AdminDeploymentRow[] }>().payload;
const logs = async (query: Record<string, unknown>) => (await call(t.app, 'GET', `/admin/logs?${raQuery(query)}`, admin)).json<{ payload: AuditLogRow[] }>().payload;

describe("a company's admin page", () => {
  it('names each plan as the customer sees it and says which server is being deleted', async () => {
    const page = await companyPage();
    const customerPlan = (await populated(t.app, owner.cookie, paid._id)).plan.name;
    expect(customerPlan).not.toMatch(/MAU|v3\./);
    const byName = Object.fromEntries(page.deployments.map((d) => [d.name, d]));
    expect(byName['Paid Server']).toMatchObject({ planName: customerPlan, terminationScheduledAt: null, status: 'running' });
    expect(byName['Free Server']?.planName).toBe((await populated(t.app, owner.cookie, free._id)).plan.name);
    const leaving = await populated(t.app, owner.cookie, deleting._id);
    expect(byName['Leaving Server']).toMatchObject({ status: 'running', terminationScheduledAt: leaving.terminationScheduledAt });
    expect(byName['Leaving Server']?.terminationScheduledAt).not.toBeNull();
  });

  it('says who takes the payments: the test checkout, not "paddle"; nobody for a free server', async () => {
    const page = await companyPage();
    const of = (id: string) => page.subscriptions.find((s) => s.deploymentId === id);
    // The stand-in records its subscriptions under Paddle's name; the page must not call them Paddle's.
    expect(of(paid._id)).toMatchObject({ vendor: 'paddle', paymentProvider: 'stand-in', cycle: 'month', status: 'active' });
    expect(of(free._id)).toMatchObject({ paymentProvider: 'free' });
    // A server being deleted: billing stops at the period's end, which the page reads from the vendor's change.
    expect(of(deleting._id)).toMatchObject({ status: 'active', nextBilledAt: null, scheduledChange: expect.objectContaining({ action: 'cancel' }) });
    expect(of(paid._id)?.nextBilledAt).not.toBeNull();
  });

  it('with Paddle configured names Paddle', async () => {
    const [root] = await t.app.database.db.select().from(users).where(eq(users.email, ROOT.email));
    if (!root) throw new Error('no platform admin');
    const page = await createAdminCompanyService({ db: t.app.database.db, payments: 'paddle' }).get(root, { companyId: owner.companyId });
    expect(page.subscriptions.find((s) => s.deploymentId === paid._id)?.paymentProvider).toBe('paddle');
  });
});

describe('the admin servers list', () => {
  it('names the plan as the customer sees it, sorts and searches by that name, and exports it', async () => {
    const customerPlan = (await populated(t.app, owner.cookie, paid._id)).plan.name;
    const rows = await servers({ sort: ['name', 'ASC'] });
    expect(rows.find((r) => r.name === 'Paid Server')).toMatchObject({ planName: customerPlan, planCode: STARTER });
    const sorted = (await servers({ sort: ['planName', 'ASC'] })).map((r) => r.planName);
    expect(sorted).toEqual([...sorted].sort((a, b) => a.localeCompare(b)));
    expect((await servers({ filter: { q: customerPlan } })).map((r) => r.name).sort()).toEqual(['Leaving Server', 'Paid Server']);
    const csv = await call(t.app, 'GET', `/admin/deployments/export?format=csv&${raQuery({ sort: ['name', 'ASC'] })}`, admin);
    const paidLine = csv.body.split('\n').find((l) => l.includes('Paid Server')) ?? '';
    expect(paidLine).toContain(`,${customerPlan},`);
    expect(paidLine).not.toContain(STARTER);
  });

  it('refuses a sort by a column it does not have, changing nothing', async () => {
    const before = await tableCounts(t.app);
    expect((await call(t.app, 'GET', `/admin/deployments?${raQuery({ sort: ['planLabel', 'ASC'] })}`, admin)).statusCode).toBe(400);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('the audit log', () => {
  it('names each target and company: a server, a user by email, a company; never only a UUID', async () => {
    const rows = await logs({ range: [0, 199] });
    const deletion = rows.find((r) => r.action === 'deployment.delete' && r.targetId === deleting._id);
    expect(deletion).toMatchObject({ targetType: 'deployment', targetName: 'Leaving Server', companyId: owner.companyId, companyName: 'Company of plain' });
    const created = rows.find((r) => r.action === 'company.create');
    expect(created).toMatchObject({ targetName: 'Company of plain', companyName: 'Company of plain' });
    const signUp = rows.find((r) => r.targetType === 'user' && r.actorEmail === 'plain@example.com');
    expect(signUp?.targetName).toBe('plain@example.com');
    // One entry reads the same as its row in the list.
    expect((await call(t.app, 'GET', `/admin/logs/${deletion?._id}`, admin)).json().payload).toEqual(deletion);
  });

  it('names a target that is gone by what its entry recorded', async () => {
    const invite = await api(t.app, owner.cookie, 'POST', `/companies/${owner.companyId}/invitations`, { email: 'later@example.com', role: 'viewer' });
    expect(invite.statusCode).toBeLessThan(300);
    const [invitation] = await t.app.database.rows<{ id: string }>("select id from invitations where email = 'later@example.com'");
    expect((await api(t.app, owner.cookie, 'DELETE', `/companies/${owner.companyId}/invitations/${invitation?.id}`)).statusCode).toBe(200);
    const rows = await logs({ filter: { targetType: 'invitation' }, range: [0, 9] });
    expect(rows.map((r) => [r.action, r.targetName])).toEqual(expect.arrayContaining([['invitation.create', 'later@example.com'], ['invitation.revoke', 'later@example.com']]));
  });

  it('exports the names beside the ids', async () => {
    const res = await call(t.app, 'GET', `/admin/logs/export?format=csv&${raQuery({ filter: { action: 'deployment.delete' } })}`, admin);
    const [header, line] = res.body.trimEnd().split('\n');
    expect(header).toContain('Target type,Target,Target (id),Company,Company (id)');
    expect(line).toContain(`,Leaving Server,${deleting._id},Company of plain,${owner.companyId},`);
  });

  it('is not for customers: the names of other companies stay with platform admins', async () => {
    const before = await tableCounts(t.app);
    expect((await call(t.app, 'GET', `/admin/logs?${raQuery({ range: [0, 9] })}`, owner.cookie)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', `/admin/companies/${owner.companyId}`, owner.cookie)).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
