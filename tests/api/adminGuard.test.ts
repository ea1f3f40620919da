import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie } from '../support/admin';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  admin = await adminCookie(t.app);
  user = (await signUpVerified(t.app, 'nosy@example.com')).cookie;
});
afterAll(() => t.close());

const ID = '00000000-0000-4000-8000-000000000000';
// Every path parameter gets a well-formed id (or a valid action), so only the guard can refuse.
const fill = (url: string) => url.replace(':action', 'lock').replace(/:[A-Za-z]+/g, ID);

describe('the admin scope', () => {
  it('answers 403 to a signed-in non-admin and 401 to nobody on every registered admin route, changing nothing', async () => {
    const routes = t.app.apiRoutes.filter((r) => r.url.startsWith('/api/v1/admin/'));
    // The walk covers what exists: users, companies, logs and plan groups at least.
    for (const area of ['users', 'companies', 'logs', 'plan-groups', 'deployments', 'deploymentTasks']) expect(routes.some((r) => r.url.startsWith(`/api/v1/admin/${area}`))).toBe(true);
    expect(routes.length).toBeGreaterThanOrEqual(20);
    // The server page's actions (restart, delete...) are in the walk too.
    expect(routes.some((r) => r.method === 'POST' && r.url === '/api/v1/admin/deployments/:id/:action')).toBe(true);
    const before = await tableCounts(t.app);
    for (const route of routes) {
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const url = `${fill(route.url)}${route.url.endsWith('/export') ? '?format=csv' : ''}`;
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const asUser = await t.app.inject({ method, url, headers: { cookie: user }, ...(body ? { payload: body } : {}) });
      expect(asUser.statusCode, `${route.method} ${route.url} as a user`).toBe(403);
      expect(asUser.json().code).toBe('FORBIDDEN');
      const anonymous = await t.app.inject({ method, url, ...(body ? { payload: body } : {}) });
      expect(anonymous.statusCode, `${route.method} ${route.url} signed out`).toBe(401);
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('lets a platform admin through the same guard', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/users', headers: { cookie: admin } })).statusCode).toBe(200);
  });

  it('asks no company of a platform admin: the seeded admin, with none, reads every admin list', async () => {
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: admin } })).json().payload;
    // The session says so, and the browser's /loading keeps an admin address on that basis.
    expect(me).toMatchObject({ isAdmin: true, onboarding: 'company', companies: [] });
    for (const area of ['users', 'companies', 'deployments', 'deploymentTasks', 'logs', 'plan-groups']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/admin/${area}`, headers: { cookie: admin } })).statusCode, area).toBe(200);
    }
  });
});
