import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { api, FAST_SERVERS, queuedJobs, settledIn } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let stranger: Awaited<ReturnType<typeof companyOwner>>;
let viewer: string;
let serverId: string;
let userId: string;

beforeAll(async () => {
  t = await createTestApp(FAST_SERVERS);
  const cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'rights-owner@example.com');
  stranger = await companyOwner(t.app, 'rights-stranger@example.com');
  viewer = await addMember(t.app, owner.companyId, 'rights-viewer@example.com', 'viewer');
  serverId = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Guarded Server' }))).json().payload._id;
  await settledIn(t.app, owner.cookie, serverId, 'running');
  userId = (await api(t.app, owner.cookie, 'GET', '/auth/me')).json().payload._id;
  // A backup to name in restore calls.
  await t.app.worker?.scheduled['nightly-backups']();
  await settledIn(t.app, owner.cookie, serverId, 'running');
});
afterAll(() => t.close());

const actions = (): [string, 'GET' | 'POST' | 'DELETE', string, Record<string, unknown>?][] => [
  ['delete', 'DELETE', `/deployments/${serverId}`],
  ['cancel termination', 'GET', `/deployments/${serverId}/cancel-termination`],
  ['restore', 'POST', `/deployments/${serverId}/restore`, {}],
  ['restart', 'POST', `/deployments/${serverId}/restart`, {}],
  ['health check', 'POST', `/deployments/${serverId}/health-check`, {}],
  ['update domain', 'POST', `/deployments/${serverId}/update-domain`, { domain: 'stats.example.org' }],
  ['remove SSL', 'POST', `/deployments/${serverId}/update-domain?removeSSL=true`, {}],
  ['verify domain', 'POST', `/deployments/${serverId}/verify-domain`, {}],
  ['unlock users', 'POST', `/deployments/${serverId}/unlock-users`, {}],
];

const reads = (): [string, string][] => [
  ['populated', `/deployments/${serverId}/populated`],
  ['backups', `/deployments/${serverId}/backups`],
  ['events', `/deployments/events?_id=${serverId}`],
  ['list', `/deployments?company=${owner.companyId}`],
  ['by company', `/deployments/by-company/${owner.companyId}`],
];

describe('who may act on a server', () => {
  it('refuses every action to a stranger and to a viewer with 403, queuing and writing nothing', async () => {
    const before = await tableCounts(t.app);
    const jobs = await queuedJobs(t.app);
    for (const cookie of [stranger.cookie, viewer]) {
      for (const [name, method, url, payload] of actions()) {
        const res = await api(t.app, cookie, method, url, payload);
        expect([name, res.statusCode]).toEqual([name, 403]);
      }
    }
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await queuedJobs(t.app)).toBe(jobs);
  });

  it('lets a viewer read the server, its backups and timeline; refuses a stranger', async () => {
    for (const [name, url] of reads()) {
      expect([name, (await api(t.app, viewer, 'GET', url)).statusCode]).toEqual([name, 200]);
      expect([name, (await api(t.app, stranger.cookie, 'GET', url)).statusCode]).toEqual([name, 403]);
    }
    const count = await api(t.app, viewer, 'GET', `/deployments/by-company/${owner.companyId}?count=1`);
    expect(count.json().payload).toEqual({ count: 1, deployments: [] });
    expect((await api(t.app, viewer, 'GET', '/deployments/by-user')).json().payload.map((d: { _id: string }) => d._id)).toEqual([serverId]);
    expect((await api(t.app, stranger.cookie, 'GET', '/deployments/by-user')).json().payload).toEqual([]);
  });

  it('gives the sign-in link to members only, for themselves only', async () => {
    const strangerId = (await api(t.app, stranger.cookie, 'GET', '/auth/me')).json().payload._id;
    expect((await api(t.app, stranger.cookie, 'GET', `/auth/beacon-server?deploymentId=${serverId}&userId=${strangerId}`)).statusCode).toBe(403);
    expect((await api(t.app, viewer, 'GET', `/auth/beacon-server?deploymentId=${serverId}&userId=${userId}`)).statusCode).toBe(403);
    expect((await api(t.app, owner.cookie, 'GET', `/auth/beacon-server?deploymentId=${serverId}&userId=${userId}`)).statusCode).toBe(200);
  });

  it('refuses a cancel-termination link followed from another site', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/deployments/${serverId}/cancel-termination`, headers: { cookie: owner.cookie, 'sec-fetch-site': 'cross-site' } });
    expect([res.statusCode, res.json().code]).toEqual([403, 'CROSS_SITE_REQUEST']);
  });

  it('answers 404 for an unknown server and 401 without a session', async () => {
    expect((await api(t.app, owner.cookie, 'POST', '/deployments/00000000-0000-4000-8000-000000000000/restart', {})).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/deployments/${serverId}/restart`, payload: {} })).statusCode).toBe(401);
  });
});
