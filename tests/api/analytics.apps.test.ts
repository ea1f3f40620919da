import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsServer, createAnalyticsApp, dashboard, eventRow, hit, RAW_EVENTS } from '../support/analytics';
import { addMember, loadCatalogue, type Catalogue } from '../support/orders';
import { multipart, TINY_PNG } from '../support/multipart';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let cat: Catalogue;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let call: ReturnType<typeof dashboard>;
let owner: { cookie: string };

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  server = await analyticsServer(t.app, cat, 'apps-owner@example.com');
  call = dashboard(t.app, server.deploymentId);
  owner = { cookie: server.owner.cookie };
});
afterAll(() => t.close());

/** The keys of an app's raw events, sorted. */
const rawKeys = async (appId: string) => (await t.app.database.rows<{ key: string }>(`select key from ${RAW_EVENTS} where app_id = '${appId}' order by key`)).map((r) => r.key);

const userId = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';
/** A company viewer added to the dashboard with these app roles; answers their cookie and member id. */
async function dashboardUser(email: string, roles: { adminOf?: string[]; userOf?: string[]; globalAdmin?: boolean }) {
  const cookie = await addMember(t.app, server.owner.companyId, email, 'viewer');
  const res = await call('POST', '/members', owner, { userId: await userId(email), adminOf: roles.adminOf ?? [], userOf: roles.userOf ?? [], globalAdmin: roles.globalAdmin ?? false });
  expect(res.statusCode).toBe(201);
  await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${server.deploymentId}/open`, headers: { cookie }, payload: {} });
  return { cookie, memberId: res.json().payload._id as string };
}

async function refused(res: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json().code).toBe(code);
}

describe('the sign-in link (open)', () => {
  it('maps the company owner in as the first global admin and records the dashboard version', async () => {
    expect(server.session.member).toMatchObject({ globalAdmin: true, email: 'apps-owner@example.com' });
    expect((await call('GET', '/versions', owner)).json().payload).toEqual([expect.objectContaining({ version: expect.any(String) })]);
  });

  it('refuses a company viewer not yet added, and a stranger, changing nothing', async () => {
    const viewer = await addMember(t.app, server.owner.companyId, 'apps-viewer0@example.com', 'viewer');
    const before = await tableCounts(t.app);
    await refused(await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${server.deploymentId}/open`, headers: { cookie: viewer }, payload: {} }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await call('GET', '/apps', { cookie: viewer }), 403, 'ANALYTICS_NOT_MEMBER');
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('applications', () => {
  it('creates an app with a generated key, a creator and the lists of admins and users; edits it', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Shop', category: 'Shopping', timezone: 'Europe/Berlin', checksumSalt: 'salt' });
    expect(app).toMatchObject({ name: 'Shop', type: 'mobile', category: 'Shopping', timezone: 'Europe/Berlin', checksumSalt: 'salt', locked: false, createdBy: { fullName: expect.any(String) }, globalAdmins: [expect.any(Object)], admins: [], users: [] });
    expect(app.key).toMatch(/^[0-9a-f]{40}$/);
    const edited = await call('PUT', `/apps/${app._id}`, owner, { name: 'Shop 2', limits: { eventKeys: 10 } });
    expect(edited.json().payload).toMatchObject({ name: 'Shop 2', limits: { eventKeys: 10 } });
    await refused(await call('POST', '/apps', owner, { name: 'Bad zone', timezone: 'Mars/Olympus' }), 400, 'VALIDATION_FAILED');
  });

  it('takes an icon only through its upload: an icon id naming any other file is refused', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Iconic' });
    const [webp] = await t.app.database.rows<{ id: string }>(`insert into files (content_type, data, size) values ('image/webp', '\\x00'::bytea, 1) returning id`);
    const [png] = await t.app.database.rows<{ id: string }>(`insert into files (content_type, data, size) values ('image/png', '\\x00'::bytea, 1) returning id`);
    const before = await tableCounts(t.app);
    await refused(await call('PUT', `/apps/${app._id}`, owner, { iconFileId: webp?.id }), 400, 'ANALYTICS_ICON_NOT_FOUND');
    await refused(await call('PUT', `/apps/${app._id}`, owner, { iconFileId: png?.id }), 400, 'ANALYTICS_ICON_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('PUT', `/apps/${app._id}`, owner, { iconFileId: null })).json().payload.iconFileId).toBeNull();
  });

  it('takes an uploaded icon by its bytes: a PNG replaces the old icon, a WebP or a text file claiming to be PNG changes nothing', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Uploaded icon' });
    const upload = async (data: Buffer, type = 'image/png', cookie = owner.cookie) => {
      const { body, headers } = await multipart({}, { field: 'icon', name: 'icon.png', type, data });
      return t.app.inject({ method: 'POST', url: `/api/v1/analytics/${server.deploymentId}/apps/${app._id}/icon`, payload: body, headers: { ...headers, cookie } });
    };
    const first = await upload(TINY_PNG);
    expect(first.statusCode).toBe(200);
    const firstIcon = first.json().payload.iconFileId as string;
    expect((await t.app.database.rows<{ content_type: string }>(`select content_type from files where id = '${firstIcon}'`))[0]?.content_type).toBe('image/png');
    const second = (await upload(TINY_PNG)).json().payload.iconFileId as string;
    expect(second).not.toBe(firstIcon);
    expect(await t.app.database.rows(`select id from files where id = '${firstIcon}'`)).toHaveLength(0);

    const viewer = await dashboardUser('apps-icon-user@example.com', { userOf: [app._id] });
    const before = await tableCounts(t.app);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
    await refused(await upload(webp, 'image/webp'), 400, 'ANALYTICS_ICON_TYPE');
    await refused(await upload(Buffer.from('not an image at all')), 400, 'FILE_TYPE');
    await refused(await upload(TINY_PNG, 'image/png', viewer.cookie), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('GET', '/apps', owner)).json().payload.find((a: { _id: string }) => a._id === app._id)?.iconFileId).toBe(second);
  });

  it('lets only the app admin clear or delete; a locked app refuses both; refusals change nothing', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Guarded' });
    const other = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Other' });
    const admin = await dashboardUser('apps-admin@example.com', { adminOf: [app._id] });
    const user = await dashboardUser('apps-user@example.com', { userOf: [app._id] });
    await hit(t.app, { app_key: app.key, device_id: 'd', events: [{ key: 'e' }] });
    const before = await tableCounts(t.app);
    await refused(await call('POST', `/apps/${app._id}/clear`, user, { period: 'all' }), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('DELETE', `/apps/${app._id}`, user), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('DELETE', `/apps/${other._id}`, admin), 404, 'ANALYTICS_APP_NOT_FOUND');
    await refused(await call('POST', `/apps/${app._id}/clear`, admin, { period: 'forever' }), 400, 'VALIDATION_FAILED');
    await call('PUT', `/apps/${app._id}`, admin, { locked: true });
    const locked = await tableCounts(t.app);
    await refused(await call('POST', `/apps/${app._id}/clear`, admin, { period: 'all' }), 409, 'ANALYTICS_APP_LOCKED');
    await refused(await call('DELETE', `/apps/${app._id}`, owner), 409, 'ANALYTICS_APP_LOCKED');
    expect(await tableCounts(t.app)).toEqual(locked);
    expect(before.analytics_daily_events).toBe(locked.analytics_daily_events);
    await call('PUT', `/apps/${app._id}`, admin, { locked: false });
    expect((await call('POST', `/apps/${app._id}/clear`, admin, { period: 'all' })).statusCode).toBe(200);
    expect(await eventRow(t.app, app._id, 'e')).toEqual([]);
    expect((await call('DELETE', `/apps/${app._id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', '/apps', owner)).json().payload.map((a: { _id: string }) => a._id)).not.toContain(app._id);
  });

  it('clears only data older than the period', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Periods' });
    const now = Date.now();
    await hit(t.app, { app_key: app.key, device_id: 'p', timestamp: String(now - 50 * 86_400_000), events: [{ key: 'old' }] });
    await hit(t.app, { app_key: app.key, device_id: 'p', timestamp: String(now), events: [{ key: 'new' }] });
    expect((await call('POST', `/apps/${app._id}/clear`, owner, { period: '1month' })).statusCode).toBe(200);
    expect(await eventRow(t.app, app._id, 'old')).toEqual([]);
    expect(await eventRow(t.app, app._id, 'new')).toHaveLength(1);
    expect(await rawKeys(app._id)).toEqual(['new']);
    const jobs = (await call('GET', '/jobs', owner)).json().payload;
    expect(jobs).toContainEqual(expect.objectContaining({ kind: 'clear', status: 'completed', appId: app._id, params: { period: '1month' } }));
  });
  it('clears the raw events before the cut even inside a request that spans it, keeping its later ones', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Spanning' });
    const now = Date.now();
    // An SDK that was offline sends old and new events in one request.
    await hit(t.app, { app_key: app.key, device_id: 's', timestamp: String(now), events: [{ key: 'old', timestamp: now - 50 * 86_400_000 }, { key: 'new', timestamp: now }, { key: 'older', timestamp: now - 60 * 86_400_000 }] });
    expect(await rawKeys(app._id)).toEqual(['new', 'old', 'older']);
    expect((await call('POST', `/apps/${app._id}/clear`, owner, { period: '1month' })).statusCode).toBe(200);
    expect(await rawKeys(app._id)).toEqual(['new']);
    expect((await call('GET', `/apps/${app._id}/app-users/s`, owner)).json().payload.rawEvents).toBe(1);
  });

  it('drops raw events past the tenant retention at the sweep, to the event', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Retention' });
    const now = Date.now();
    await t.app.database.rows(`update analytics_tenants set raw_retention_days = 30 where deployment_id = '${server.deploymentId}'`);
    await hit(t.app, { app_key: app.key, device_id: 'r', timestamp: String(now), events: [{ key: 'kept', timestamp: now - 29 * 86_400_000 }, { key: 'gone', timestamp: now - 31 * 86_400_000 }] });
    await hit(t.app, { app_key: app.key, device_id: 'r', timestamp: String(now - 40 * 86_400_000), events: [{ key: 'gone' }] });
    await t.app.analytics.sweep();
    expect(await rawKeys(app._id)).toEqual(['kept']);
    // Aggregates hold no device and stay.
    expect(await eventRow(t.app, app._id, 'gone')).not.toEqual([]);
    await t.app.database.rows(`update analytics_tenants set raw_retention_days = 90 where deployment_id = '${server.deploymentId}'`);
  });
});

describe('dashboard users', () => {
  it('needs an app unless global admin, and only company users', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Team' });
    await addMember(t.app, server.owner.companyId, 'apps-noapp@example.com', 'viewer');
    const before = await tableCounts(t.app);
    await refused(await call('POST', '/members', owner, { userId: await userId('apps-noapp@example.com') }), 400, 'ANALYTICS_MEMBER_NEEDS_APP');
    const outsider = await analyticsServer(t.app, cat, 'apps-outsider@example.com');
    await refused(await call('POST', '/members', owner, { userId: await userId('apps-outsider@example.com'), userOf: [app._id] }), 400, 'ANALYTICS_NOT_COMPANY_USER');
    await refused(await call('POST', '/members', owner, { userId: await userId('apps-noapp@example.com'), userOf: [outsider.session.apps[0]?._id ?? '00000000-0000-4000-8000-000000000000'] }), 404, 'ANALYTICS_APP_NOT_FOUND');
    expect((await tableCounts(t.app)).analytics_members).toBe((before.analytics_members ?? 0) + 1);
    const member = await dashboardUser('apps-member@example.com', { userOf: [app._id] });
    await refused(await call('PUT', `/members/${member.memberId}`, owner, { userOf: [] }), 400, 'ANALYTICS_MEMBER_NEEDS_APP');
    expect((await call('GET', '/members', owner)).json().payload.find((m: { _id: string }) => m._id === member.memberId)).toMatchObject({ userOf: [app._id] });
    await refused(await call('GET', '/members', member), 403, 'ANALYTICS_GLOBAL_ADMIN_REQUIRED');
  });

  it('offers the company users not yet on the dashboard as candidates, to global admins only', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Candidates' });
    await addMember(t.app, server.owner.companyId, 'apps-candidate@example.com', 'viewer');
    const emails = async () => ((await call('GET', '/members/candidates', owner)).json().payload as { email: string; userId: string }[]).map((c) => c.email);
    expect(await emails()).toContain('apps-candidate@example.com');
    expect(await emails()).not.toContain('apps-owner@example.com');
    const added = await call('POST', '/members', owner, { userId: await userId('apps-candidate@example.com'), userOf: [app._id] });
    expect(added.statusCode).toBe(201);
    expect(await emails()).not.toContain('apps-candidate@example.com');
    const member = await dashboardUser('apps-candidate-reader@example.com', { userOf: [app._id] });
    await refused(await call('GET', '/members/candidates', member), 403, 'ANALYTICS_GLOBAL_ADMIN_REQUIRED');
  });

  it('only a global admin removes a global admin, and never the last one', async () => {
    const app = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Admins' });
    const second = await dashboardUser('apps-global2@example.com', { globalAdmin: true });
    const appAdmin = await dashboardUser('apps-appadmin@example.com', { adminOf: [app._id] });
    const before = await tableCounts(t.app);
    await refused(await call('DELETE', `/members/${second.memberId}`, appAdmin), 403, 'ANALYTICS_GLOBAL_ADMIN_REQUIRED');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('DELETE', `/members/${second.memberId}`, owner)).statusCode).toBe(200);
    const ownerId = server.session.member._id;
    const last = await tableCounts(t.app);
    await refused(await call('DELETE', `/members/${ownerId}`, owner), 409, 'ANALYTICS_LAST_GLOBAL_ADMIN');
    // The owner is also a company admin: never demoted nor locked, last global admin or not.
    await refused(await call('PUT', `/members/${ownerId}`, owner, { globalAdmin: false, adminOf: [app._id] }), 409, 'ANALYTICS_OWNER_PROTECTED');
    await refused(await call('PUT', `/members/${ownerId}`, owner, { locked: true }), 409, 'ANALYTICS_OWNER_PROTECTED');
    expect(await tableCounts(t.app)).toEqual(last);
    expect((await call('GET', '/me', owner)).json().payload).toMatchObject({ globalAdmin: true, locked: false });
  });
});

describe('user settings', () => {
  it('changes the password by the rules and generates a 32-character API key', async () => {
    const me = { cookie: owner.cookie };
    await refused(await call('PUT', '/me/password', me, { newPassword: 'Abcdefg1!', confirmation: 'Abcdefg2!' }), 400, 'ANALYTICS_PASSWORDS_DO_NOT_MATCH');
    expect((await call('PUT', '/me/password', me, { newPassword: 'Abcdefg1!', confirmation: 'Abcdefg1!' })).statusCode).toBe(200);
    await refused(await call('PUT', '/me/password', me, { oldPassword: 'wrong-one', newPassword: 'Zyxwvut9!', confirmation: 'Zyxwvut9!' }), 400, 'ANALYTICS_WRONG_PASSWORD');
    await refused(await call('PUT', '/me/password', me, { oldPassword: 'Abcdefg1!', newPassword: 'Abcdefg1!', confirmation: 'Abcdefg1!' }), 400, 'ANALYTICS_SAME_PASSWORD');
    expect((await call('PUT', '/me/password', me, { oldPassword: 'Abcdefg1!', newPassword: 'Zyxwvut9!', confirmation: 'Zyxwvut9!' })).statusCode).toBe(200);

    // Keys are generated, never chosen: the old route to set one is gone.
    expect((await call('PUT', '/me/api-key', me, { apiKey: 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6' })).statusCode).toBe(404);
    const key = (await call('POST', '/me/api-key/regenerate', me, {})).json().payload.apiKey as string;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    // The key authenticates as the member, without the session.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${server.deploymentId}/me?api_key=${key}` })).json().payload.globalAdmin).toBe(true);
    const regenerated = (await call('POST', '/me/api-key/regenerate', me, {})).json().payload.apiKey as string;
    expect(regenerated).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(regenerated).not.toBe(key);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${server.deploymentId}/me?api_key=${key}` })).statusCode).toBe(401);
    const [row] = await t.app.database.rows<{ api_key_hash: string }>(`select api_key_hash from analytics_members where id = '${server.session.member._id}'`);
    expect(row?.api_key_hash).not.toContain(regenerated);
  });
});

describe('management lists page, sort and search on the server', () => {
  it('answers one page of the apps in the asked order, with the total in x-total-count', async () => {
    for (const name of ['Paged C', 'Paged A', 'Paged B']) await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name });
    const whole = await call('GET', '/apps', owner);
    const all = whole.json().payload as { name: string }[];
    expect(whole.headers['x-total-count']).toBe(String(all.length));

    const first = await call('GET', '/apps?q=paged&sort=name&order=DESC&page=1&perPage=2', owner);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('3');
    expect(first.json().payload.map((a: { name: string }) => a.name)).toEqual(['Paged C', 'Paged B']);
    const second = await call('GET', '/apps?q=paged&sort=name&order=DESC&page=2&perPage=2', owner);
    expect(second.json().payload.map((a: { name: string }) => a.name)).toEqual(['Paged A']);
  });

  it('pages the users and the tokens, and reads one user by id', async () => {
    const members = await call('GET', '/members?page=1&perPage=1&sort=email&order=ASC', owner);
    expect(members.statusCode).toBe(200);
    expect(members.json().payload).toHaveLength(1);
    expect(Number(members.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    const one = await call('GET', `/members/${server.session.member._id}`, owner);
    expect(one.json().payload).toMatchObject({ _id: server.session.member._id, email: 'apps-owner@example.com' });
    await refused(await call('GET', '/members/00000000-0000-4000-8000-000000000000', owner), 404, 'ANALYTICS_MEMBER_NOT_FOUND');

    for (const purpose of ['list one', 'list two']) expect((await call('POST', '/tokens', owner, { purpose, allApps: true, neverExpires: true })).statusCode).toBe(201);
    const tokens = await call('GET', '/tokens?q=list&sort=purpose&order=ASC&page=1&perPage=10', owner);
    expect(tokens.headers['x-total-count']).toBe('2');
    expect(tokens.json().payload.map((r: { purpose: string }) => r.purpose)).toEqual(['list one', 'list two']);
  });

  it('refuses an unknown sort column or a page size past the limit, changing nothing', async () => {
    const before = await tableCounts(t.app);
    await refused(await call('GET', '/apps?sort=checksumSalt', owner), 400, 'VALIDATION_FAILED');
    await refused(await call('GET', '/members?page=1&perPage=100000', owner), 400, 'VALIDATION_FAILED');
    await refused(await call('GET', '/tokens?page=0', owner), 400, 'VALIDATION_FAILED');
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
