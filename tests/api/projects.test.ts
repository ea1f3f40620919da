import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../support/accounts';
import { addMember, companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let viewer: string;
let stranger: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  owner = await companyOwner(t.app, 'owner@example.com');
  viewer = await addMember(t.app, owner.companyId, 'viewer@example.com', 'viewer');
  stranger = (await signUpVerified(t.app, 'stranger@example.com')).cookie;
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string | undefined, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });

const projectsUrl = () => `/companies/${owner.companyId}/projects`;
const auditRows = (targetId: string) => t.app.database.rows<{ action: string; actor_email: string; before: unknown; after: unknown }>(`select action, actor_email, before, after from audit_logs where target_type = 'project' and target_id = '${targetId}' order by at, id`);

describe('Management › Project: GET/POST/PUT/DELETE /companies/{id}/projects', () => {
  let created: string;

  it('lists the default project with its server count, for members including viewers', async () => {
    for (const cookie of [owner.cookie, viewer]) {
      const res = await api('GET', projectsUrl(), cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json().payload).toEqual([expect.objectContaining({ _id: owner.projectId, name: 'Default project', servers: 0 })]);
    }
  });

  it('creates a project, audited, and lists it after the default one', async () => {
    const res = await api('POST', projectsUrl(), owner.cookie, { name: '  Mobile apps ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload).toMatchObject({ name: 'Mobile apps', servers: 0 });
    created = res.json().payload._id;
    const list = (await api('GET', projectsUrl(), owner.cookie)).json().payload as { name: string }[];
    expect(list.map((p) => p.name)).toEqual(['Default project', 'Mobile apps']);
    expect(await auditRows(created)).toEqual([expect.objectContaining({ action: 'project.create', actor_email: 'owner@example.com', after: { name: 'Mobile apps' } })]);
    // The company answer (the project switcher's source) lists it too.
    const company = (await api('GET', `/companies/${owner.companyId}`, owner.cookie)).json().payload;
    expect(company.projects.map((p: { _id: string }) => p._id)).toContain(created);
  });

  it('renames a project, audited with the name before and after', async () => {
    const res = await api('PUT', `${projectsUrl()}/${created}`, owner.cookie, { name: 'Web apps' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ _id: created, name: 'Web apps' });
    expect((await auditRows(created)).at(-1)).toMatchObject({ action: 'project.rename', before: { name: 'Mobile apps' }, after: { name: 'Web apps' } });
  });

  it('refuses an invalid or taken name, changing nothing', async () => {
    for (const [method, url, name, status] of [
      ['POST', projectsUrl(), 'A', 400],
      ['POST', projectsUrl(), '<b>x</b>', 400],
      ['POST', projectsUrl(), 'default PROJECT', 409],
      ['PUT', `${projectsUrl()}/${created}`, 'Default project', 409],
    ] as const) {
      const before = await tableCounts(t.app);
      const res = await api(method, url, owner.cookie, { name });
      expect(res.statusCode, name).toBe(status);
      expect(res.json().payload.errors.name, name).toBeDefined();
      expect(await tableCounts(t.app)).toEqual(before);
    }
    expect((await api('GET', projectsUrl(), owner.cookie)).json().payload.map((p: { name: string }) => p.name)).toEqual(['Default project', 'Web apps']);
  });

  it('refuses to delete a project that has servers, saying why, and deletes it once it has none', async () => {
    const cat = await loadCatalogue(t.app);
    const order = await postOrder(t.app, owner.cookie, orderBody(cat, { companyId: owner.companyId, projectId: created }, { planCode: FREE }));
    expect(order.statusCode).toBe(201);
    const before = await tableCounts(t.app);
    const refused = await api('DELETE', `${projectsUrl()}/${created}`, owner.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PROJECT_HAS_SERVERS', message: 'This project still has servers (1). Delete them first, then delete the project.' });
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await api('GET', projectsUrl(), owner.cookie)).json().payload.find((p: { _id: string }) => p._id === created)).toMatchObject({ servers: 1 });

    const empty = (await api('POST', projectsUrl(), owner.cookie, { name: 'Spare' })).json().payload._id as string;
    const res = await api('DELETE', `${projectsUrl()}/${empty}`, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect((await api('GET', projectsUrl(), owner.cookie)).json().payload.map((p: { _id: string }) => p._id)).not.toContain(empty);
    expect((await auditRows(empty)).map((r) => r.action)).toEqual(['project.create', 'project.delete']);
  });

  it('answers 404 for a project of another company, changing nothing', async () => {
    const other = await companyOwner(t.app, 'other@example.com');
    const before = await tableCounts(t.app);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await api(method, `${projectsUrl()}/${other.projectId}`, owner.cookie, method === 'PUT' ? { name: 'Stolen' } : undefined);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().code).toBe('PROJECT_NOT_FOUND');
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('lets viewers read but not act, and strangers neither; refused calls change nothing', async () => {
    const calls = [
      ['POST', projectsUrl(), { name: 'Sneaky' }],
      ['PUT', `${projectsUrl()}/${owner.projectId}`, { name: 'Sneaky' }],
      ['DELETE', `${projectsUrl()}/${created}`, undefined],
    ] as const;
    for (const [cookie, code, extra] of [
      [viewer, 'ROLE_REQUIRED', []],
      [stranger, 'NOT_A_MEMBER', [['GET', projectsUrl(), undefined]]],
    ] as const) {
      for (const [method, url, payload] of [...calls, ...extra]) {
        const before = await tableCounts(t.app);
        const res = await api(method, url, cookie, payload);
        expect(res.statusCode, `${code} ${method} ${url}`).toBe(403);
        expect(res.json().code).toBe(code);
        expect(await tableCounts(t.app)).toEqual(before);
      }
    }
    expect((await api('GET', projectsUrl(), undefined)).statusCode).toBe(401);
  });
});
