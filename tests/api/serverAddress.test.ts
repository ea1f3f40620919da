import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productSlug, type DeploymentPopulated } from '../../src/domain/deployments/schemas';
import { sessionCookie } from '../support/auth';
import { createAnalyticsApp } from '../support/analytics';
import { addMember, companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, settledIn } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * Every server answers at its own address: its SDK paths and its dashboard, nothing else; the
 * portal at Beacon's host; any other host gets 404. The dashboard there has its own session, made
 * from the portal's signed link, valid at that address only.
 */
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let one: DeploymentPopulated;
let two: DeploymentPopulated;
let appKey = '';
let ownerId = '';

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, SERVER_DASHBOARDS: 'address', SERVER_ADDRESS_PORT: '8443' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'address-owner@example.com');
  ownerId = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: owner.cookie } })).json().payload._id as string;
  // The shop's server has the custom-domain option (a paid plan); the blog's is free.
  const shop = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Shop Analytics', planConfig: { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.custom'), cat.feature('retention.6m')] } }));
  expect((await pay(t.app, owner.cookie, shop.json().payload._id as string)).statusCode).toBe(200);
  one = await settledIn(t.app, owner.cookie, shop.json().payload._id as string, 'running');
  const blog = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Blog Analytics' }));
  two = await settledIn(t.app, owner.cookie, blog.json().payload._id as string, 'running');
  expect((await api(t.app, owner.cookie, 'POST', `/analytics/${one._id}/open`, {})).statusCode).toBe(200);
  expect((await api(t.app, owner.cookie, 'POST', `/analytics/${two._id}/open`, {})).statusCode).toBe(200);
  appKey = (await createAnalyticsApp(t.app, one._id, owner.cookie, { name: 'Shop web' })).key;
});
afterAll(() => t.close());

const hostOf = (d: DeploymentPopulated) => new URL(d.url ?? '').hostname;
const at = (host: string, method: 'GET' | 'POST', url: string, extra: { cookie?: string; payload?: Record<string, unknown> } = {}) =>
  t.app.inject({ method, url, headers: { host, ...(extra.cookie ? { cookie: extra.cookie } : {}) }, ...(extra.payload ? { payload: extra.payload } : {}) });

async function signInLink(deploymentId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/${productSlug(t.config.PRODUCT_NAME)}-server?${new URLSearchParams({ deploymentId, userId: ownerId })}`, headers: { cookie: owner.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(res.json<{ payload: { url: string } }>().payload.url);
  const claims = new URLSearchParams(url.hash.split('?')[1]);
  return { url, link: { user: claims.get('user') ?? '', server: claims.get('server') ?? '', exp: claims.get('exp') ?? '', sig: claims.get('sig') ?? '' } };
}

describe('a server’s own address', () => {
  it('is where the server is reached: its address carries the edge’s port', () => {
    expect(one.url).toMatch(/^https:\/\/shop-analytics-[0-9a-f]{8}\.servers\.beacon\.localhost:8443$/);
  });

  it('takes its own apps’ SDK requests and refuses another server’s key there', async () => {
    const sent = `/i?app_key=${appKey}&device_id=d1&begin_session=1`;
    expect((await at(hostOf(one), 'GET', sent)).json()).toEqual({ result: 'Success' });
    expect((await at(`${hostOf(one)}:8443`, 'GET', sent)).json()).toEqual({ result: 'Success' });
    const refused = await at(hostOf(two), 'GET', sent);
    expect([refused.statusCode, refused.json()]).toEqual([400, { result: 'App does not exist' }]);
    // Beacon's own host still takes every app's key, as before.
    expect((await at('localhost', 'GET', sent)).json()).toEqual({ result: 'Success' });
  });

  it('serves nothing of the portal, nor another server’s dashboard', async () => {
    for (const path of ['/api/v1/companies', '/api/v1/auth/me', `/api/v1/analytics/${two._id}/apps`, '/dev/mailbox', '/legal/terms']) {
      const res = await at(hostOf(one), 'GET', path, { cookie: owner.cookie });
      expect([path, res.statusCode, res.json().code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it('answers 404 at a host it does not know', async () => {
    for (const path of ['/', '/i?app_key=x&device_id=y', '/api/v1/plans/public']) {
      const res = await at('nobody.example.com', 'GET', path);
      expect([path, res.statusCode, res.json().code]).toEqual([path, 404, 'UNKNOWN_HOST']);
    }
    // A custom domain is served only once verified.
    await t.app.database.rows(`update deployment_runtime set custom_domain = 'analytics.shop.test', domain_verified_at = null where deployment_id = '${one._id}'`);
    t.app.serverHosts.forget();
    expect((await at('analytics.shop.test', 'GET', `/i?app_key=${appKey}&device_id=d2`)).statusCode).toBe(404);
    await t.app.database.rows(`update deployment_runtime set domain_verified_at = now() where deployment_id = '${one._id}'`);
    t.app.serverHosts.forget();
    expect((await at('analytics.shop.test', 'GET', `/i?app_key=${appKey}&device_id=d2`)).json()).toEqual({ result: 'Success' });
    // A verified domain of a server whose options have no custom domain is not served.
    await t.app.database.rows(`update deployment_runtime set custom_domain = 'blog.shop.test', domain_verified_at = now() where deployment_id = '${two._id}'`);
    t.app.serverHosts.forget();
    expect((await at('blog.shop.test', 'GET', '/')).json().code).toBe('UNKNOWN_HOST');
  });

  it('signs the member in there through the portal’s link: a session valid at that address only, once per link', async () => {
    const { url, link } = await signInLink(one._id);
    expect(url.origin).toBe(one.url);
    expect(url.hash).toMatch(new RegExp(`^#/analytics/${one._id}\\?`));
    // Without a session, the dashboard's API refuses.
    expect((await at(hostOf(one), 'GET', `/api/v1/analytics/${one._id}/apps`)).statusCode).toBe(401);

    // The link of one server does not sign in at another's address, nor on the portal.
    expect((await at(hostOf(two), 'POST', `/api/v1/analytics/${two._id}/signin`, { payload: { link } })).json().code).toBe('ANALYTICS_SIGNIN_LINK_INVALID');
    expect((await at('localhost', 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link } })).statusCode).toBe(404);

    const signedIn = await at(hostOf(one), 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().payload.apps.map((a: { name: string }) => a.name)).toEqual(['Shop web']);
    expect(signedIn.headers['set-cookie']).toMatch(/HttpOnly/i);
    expect(signedIn.headers['set-cookie']).not.toMatch(/Domain=/i);
    const cookie = sessionCookie(signedIn);
    expect((await at(hostOf(one), 'GET', `/api/v1/analytics/${one._id}/apps`, { cookie })).statusCode).toBe(200);
    // That session is nothing on the portal, and the portal's is nothing there.
    expect((await at('localhost', 'GET', '/api/v1/auth/me', { cookie })).statusCode).toBe(401);
    expect((await at(hostOf(one), 'GET', `/api/v1/analytics/${one._id}/apps`, { cookie: owner.cookie })).statusCode).toBe(401);
    // A link signs in once.
    expect((await at(hostOf(one), 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link } })).json().code).toBe('ANALYTICS_SIGNIN_LINK_INVALID');
  });

  it('refuses a tampered or expired link and a member who left the company', async () => {
    const { link } = await signInLink(one._id);
    const tampered = { ...link, exp: String(Number(link.exp) + 600) };
    expect((await at(hostOf(one), 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link: tampered } })).json().code).toBe('ANALYTICS_SIGNIN_LINK_INVALID');
    const expired = { ...link, exp: String(Math.floor(Date.now() / 1000) - 5) };
    expect((await at(hostOf(one), 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link: expired } })).statusCode).toBeGreaterThanOrEqual(400);

    const viewer = await addMember(t.app, owner.companyId, 'address-viewer@example.com', 'viewer');
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: viewer } })).json().payload as { _id: string };
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/${productSlug(t.config.PRODUCT_NAME)}-server?${new URLSearchParams({ deploymentId: one._id, userId: me._id })}`, headers: { cookie: viewer } });
    const claims = new URLSearchParams(new URL(res.json().payload.url).hash.split('?')[1]);
    await t.app.database.rows(`delete from company_members where user_id = '${me._id}'`);
    const gone = await at(hostOf(one), 'POST', `/api/v1/analytics/${one._id}/signin`, { payload: { link: Object.fromEntries(claims) } });
    expect(gone.statusCode).toBe(403);
    expect(gone.headers['set-cookie']).toBeUndefined();
  });
});
