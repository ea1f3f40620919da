import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto } from '../../analytics/domain/schemas';
import { REPORT_SEND_NOW_PER_DAY } from '../../analytics/domain/constants';
import { adminCookie, call as adminCall, raQuery } from '../support/admin';
import { analyticsServer, createAnalyticsApp, dashboard } from '../support/analytics';
import { multipart, TINY_PNG } from '../support/multipart';
import { addMember, loadCatalogue, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Attacks on an analytics
 * tenant by its own users, former users and other companies. Each is refused with the error
 * envelope and leaves the tables (and the mail outbox) as they were.
 */
let t: TestApp;
let cat: Catalogue;
let a: Awaited<ReturnType<typeof analyticsServer>>;
let b: Awaited<ReturnType<typeof analyticsServer>>;
let appA: AppDto;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
  a = await analyticsServer(t.app, cat, 'tenancy-a@example.com');
  b = await analyticsServer(t.app, cat, 'tenancy-b@example.com');
  appA = await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'A app' });
});
afterAll(() => t.close());

const callA = (...args: Parameters<ReturnType<typeof dashboard>>) => dashboard(t.app, a.deploymentId)(...args);
const owner = () => ({ cookie: a.owner.cookie });
const userId = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';
const open = (deploymentId: string, cookie: string) => t.app.inject({ method: 'POST', url: `/api/v1/analytics/${deploymentId}/open`, headers: { cookie }, payload: {} });
const memberRow = async (id: string) =>
  (await t.app.database.rows<{ global_admin: boolean; locked: boolean; banned_until: string | null }>(`select global_admin, locked, banned_until from analytics_members where id = '${id}'`))[0];

async function refused(res: { statusCode: number; json(): { code: string; message: string } }, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(res.json().code).toBe(code);
  expect(res.json().message).toBeTruthy();
}

/** A company user of A (admin or viewer) who opened A's dashboard; a viewer is added to it with these roles first. */
async function userOfA(email: string, role: 'admin' | 'viewer', roles: { globalAdmin?: boolean; adminOf?: string[]; userOf?: string[] } = {}) {
  const cookie = await addMember(t.app, a.owner.companyId, email, role);
  if (role === 'viewer') {
    const added = await callA('POST', '/members', owner(), { userId: await userId(email), globalAdmin: roles.globalAdmin ?? false, adminOf: roles.adminOf ?? [], userOf: roles.userOf ?? [] });
    expect(added.statusCode).toBe(201);
  }
  const opened = await open(a.deploymentId, cookie);
  expect(opened.statusCode).toBe(200);
  return { cookie, id: await userId(email), memberId: opened.json().payload.member._id as string };
}

describe('access that outlives membership (2)', () => {
  it('removing a user from the company ends their dashboard, API key and tokens in that transaction', async () => {
    const leaver = await userOfA('tenancy-leaver@example.com', 'admin');
    const apiKey = (await callA('POST', '/me/api-key/regenerate', { cookie: leaver.cookie }, {})).json().payload.apiKey as string;
    const token = (await callA('POST', '/tokens', { cookie: leaver.cookie }, { purpose: 'Backdoor', neverExpires: true, allApps: true })).json().payload.token as string;
    expect((await callA('GET', '/apps', { headers: { 'countly-token': token } })).statusCode).toBe(200);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${a.owner.companyId}/users/${leaver.id}`, headers: { cookie: a.owner.cookie } });
    expect(removed.statusCode).toBe(200);
    expect(await t.app.database.rows(`select id from analytics_members where user_id = '${leaver.id}'`)).toEqual([]);
    expect(await t.app.database.rows(`select id from analytics_tokens where owner_id = '${leaver.memberId}'`)).toEqual([]);

    const before = await tableCounts(t.app);
    // Opening the dashboard is refused by the company first; the wing's own calls by the wing.
    await refused(await open(a.deploymentId, leaver.cookie), 403, 'NOT_A_MEMBER');
    await refused(await callA('GET', '/apps', { cookie: leaver.cookie }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await callA('PUT', `/members/${a.session.member._id}`, { cookie: leaver.cookie }, { locked: true }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await callA('GET', '/apps', { headers: { 'countly-token': token } }), 401, 'ANALYTICS_TOKEN_INVALID');
    await refused(await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${a.deploymentId}/apps?api_key=${apiKey}` }), 401, 'ANALYTICS_TOKEN_INVALID');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('checks the company membership on every call, whatever the credential', async () => {
    const gone = await userOfA('tenancy-gone@example.com', 'admin');
    const apiKey = (await callA('POST', '/me/api-key/regenerate', { cookie: gone.cookie }, {})).json().payload.apiKey as string;
    const token = (await callA('POST', '/tokens', { cookie: gone.cookie }, { purpose: 'Kept', neverExpires: true, allApps: true })).json().payload.token as string;
    // Gone from the company by a path that left the dashboard rows in place.
    await t.app.database.rows(`delete from company_members where company_id = '${a.owner.companyId}' and user_id = '${gone.id}'`);
    const before = await tableCounts(t.app);
    await refused(await callA('GET', '/apps', { cookie: gone.cookie }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await callA('GET', '/apps', { headers: { 'countly-token': token } }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${a.deploymentId}/apps?api_key=${apiKey}` }), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await callA('PUT', `/members/${a.session.member._id}`, { headers: { 'countly-token': token } }, { locked: true }), 403, 'ANALYTICS_NOT_MEMBER');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it("never lets a global admin lock, ban, demote or remove the company's owners, and /open restores one who was", async () => {
    const rogue = await userOfA('tenancy-rogue@example.com', 'viewer', { globalAdmin: true });
    const ownerMember = a.session.member._id;
    const before = await memberRow(ownerMember);
    const counts = await tableCounts(t.app);
    await refused(await callA('PUT', `/members/${ownerMember}`, { cookie: rogue.cookie }, { locked: true }), 409, 'ANALYTICS_OWNER_PROTECTED');
    await refused(await callA('PUT', `/members/${ownerMember}`, { cookie: rogue.cookie }, { bannedUntil: new Date(Date.now() + 86_400_000).toISOString() }), 409, 'ANALYTICS_OWNER_PROTECTED');
    await refused(await callA('PUT', `/members/${ownerMember}`, { cookie: rogue.cookie }, { globalAdmin: false, userOf: [appA._id] }), 409, 'ANALYTICS_OWNER_PROTECTED');
    // Nor removed: that would take the owner's API key and tokens with them.
    await refused(await callA('DELETE', `/members/${ownerMember}`, { cookie: rogue.cookie }), 409, 'ANALYTICS_OWNER_PROTECTED');
    expect(await memberRow(ownerMember)).toEqual(before);
    expect(await tableCounts(t.app)).toEqual(counts);
    expect((await open(a.deploymentId, a.owner.cookie)).statusCode).toBe(200);

    // A lock written before this rule (or by hand) keeps no owner out, and their next open lifts it.
    await t.app.database.rows(`update analytics_members set locked = true, global_admin = false, banned_until = now() + interval '1 day' where id = '${ownerMember}'`);
    expect((await callA('GET', '/members', owner())).statusCode).toBe(200);
    const reopened = await open(a.deploymentId, a.owner.cookie);
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().payload.member).toMatchObject({ globalAdmin: true, locked: false, bannedUntil: null });
  });
});

describe('partial updates and member fields (13, fuzz)', () => {
  it('locking a global admin keeps their global admin and app roles; renaming an app keeps its type and time zone', async () => {
    const member = await userOfA('tenancy-partial@example.com', 'viewer', { globalAdmin: true, adminOf: [appA._id] });
    const locked = await callA('PUT', `/members/${member.memberId}`, owner(), { locked: true });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().payload).toMatchObject({ locked: true, globalAdmin: true, adminOf: [appA._id], userOf: [] });

    const web = await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'Web shop', type: 'web', timezone: 'Europe/Paris' });
    const renamed = await callA('PUT', `/apps/${web._id}`, owner(), { name: 'Web store' });
    expect(renamed.json().payload).toMatchObject({ name: 'Web store', type: 'web', timezone: 'Europe/Paris' });
  });

  it('refuses a ban time that is not an instant (-Infinity, NaN, junk) as a field error, changing nothing', async () => {
    const member = await userOfA('tenancy-ban@example.com', 'viewer', { userOf: [appA._id] });
    const before = await tableCounts(t.app);
    const row = await memberRow(member.memberId);
    for (const bannedUntil of ['-Infinity', 'Infinity', 'NaN', '+275760-09-13T00:00:00.001Z', 'tomorrow', '']) {
      const res = await callA('PUT', `/members/${member.memberId}`, owner(), { bannedUntil });
      await refused(res, 400, 'VALIDATION_FAILED');
      expect(Object.keys(res.json<{ payload: { errors: Record<string, unknown> } }>().payload.errors)).toEqual(['bannedUntil']);
    }
    const candidate = await addMember(t.app, a.owner.companyId, 'tenancy-ban2@example.com', 'viewer');
    expect(candidate).toBeTruthy();
    const counts = await tableCounts(t.app);
    await refused(await callA('POST', '/members', owner(), { userId: await userId('tenancy-ban2@example.com'), userOf: [appA._id], bannedUntil: '-Infinity' }), 400, 'VALIDATION_FAILED');
    expect(await memberRow(member.memberId)).toEqual(row);
    expect(before.analytics_members).toBe(counts.analytics_members);
    expect(await tableCounts(t.app)).toEqual(counts);
  });
});

describe('API keys (12)', () => {
  it('cannot be chosen, so nobody learns whether a key is in use; generated keys work on their own tenant only', async () => {
    const keyB = (await dashboard(t.app, b.deploymentId)('POST', '/me/api-key/regenerate', { cookie: b.owner.cookie }, {})).json().payload.apiKey as string;
    const before = await tableCounts(t.app);
    // Setting B's key as A's own: the route is gone, whatever the key.
    const chosen = await callA('PUT', '/me/api-key', owner(), { apiKey: keyB });
    expect(chosen.statusCode).toBe(404);
    expect(chosen.json().code).toBe('ROUTE_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);
    await refused(await t.app.inject({ method: 'GET', url: `/api/v1/analytics/${a.deploymentId}/me?api_key=${keyB}` }), 401, 'ANALYTICS_TOKEN_INVALID');
    const keyA = (await callA('POST', '/me/api-key/regenerate', owner(), {})).json().payload.apiKey as string;
    expect(keyA).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(keyA).not.toBe(keyB);
  });
});

describe('app icons (11)', () => {
  it("refuses another company's file as an icon, so the next upload deletes nothing of theirs", async () => {
    const appB = await createAnalyticsApp(t.app, b.deploymentId, b.owner.cookie, { name: 'B app' });
    const { body, headers } = await multipart({}, { field: 'icon', name: 'icon.png', type: 'image/png', data: TINY_PNG });
    const uploaded = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${b.deploymentId}/apps/${appB._id}/icon`, payload: body, headers: { ...headers, cookie: b.owner.cookie } });
    const fileB = uploaded.json().payload.iconFileId as string;
    expect(fileB).toBeTruthy();

    const before = await tableCounts(t.app);
    await refused(await callA('PUT', `/apps/${appA._id}`, owner(), { iconFileId: fileB }), 400, 'ANALYTICS_ICON_NOT_FOUND');
    await refused(await callA('POST', '/apps', owner(), { name: 'Thief', iconFileId: fileB }), 400, 'ANALYTICS_ICON_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);

    // A's own upload: B's file is still there, still B's icon.
    const own = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${a.deploymentId}/apps/${appA._id}/icon`, payload: body, headers: { ...headers, cookie: a.owner.cookie } });
    expect(own.statusCode).toBe(200);
    expect(await t.app.database.rows(`select id from files where id = '${fileB}'`)).toHaveLength(1);
    expect((await t.app.database.rows<{ icon_file_id: string }>(`select icon_file_id from analytics_apps where id = '${appB._id}'`))[0]?.icon_file_id).toBe(fileB);
  });
});

describe('the checksum salt (16)', () => {
  it('is shown to app admins only and never written in clear to the audit log or its export', async () => {
    const salted = await createAnalyticsApp(t.app, a.deploymentId, a.owner.cookie, { name: 'Salted', checksumSalt: 'first-secret-salt' });
    expect((await callA('PUT', `/apps/${salted._id}`, owner(), { checksumSalt: 'second-secret-salt' })).statusCode).toBe(200);
    const reader = await userOfA('tenancy-reader@example.com', 'viewer', { userOf: [salted._id] });
    const seen = (await callA('GET', '/apps', { cookie: reader.cookie })).json().payload.find((x: AppDto) => x._id === salted._id);
    expect(seen.checksumSalt).toBeNull();
    expect((await open(a.deploymentId, reader.cookie)).json().payload.apps.find((x: AppDto) => x._id === salted._id).checksumSalt).toBeNull();
    expect((await callA('GET', '/apps', owner())).json().payload.find((x: AppDto) => x._id === salted._id).checksumSalt).toBe('second-secret-salt');

    const audit = await t.app.database.rows<{ text: string }>(`select coalesce(before::text, '') || coalesce(after::text, '') as text from audit_logs where target_id = '${salted._id}'`);
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.map((r) => r.text).join(' ')).not.toMatch(/secret-salt/);

    // A row written before the redaction existed: the admin area's list, entry and export still hide it.
    const [old] = await t.app.database.rows<{ id: string }>(
      `insert into audit_logs (action, target_type, target_id, company_id, after) values ('analyticsApp.update', 'analyticsApp', '${salted._id}', '${a.owner.companyId}', '{"checksumSalt":"legacy-secret-salt"}') returning id`,
    );
    const admin = await adminCookie(t.app);
    const list = await adminCall(t.app, 'GET', `/admin/logs?${raQuery({ filter: { targetId: salted._id } })}`, admin);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toMatch(/secret-salt/);
    expect(list.body).toContain('[redacted]');
    expect((await adminCall(t.app, 'GET', `/admin/logs/${old?.id}`, admin)).json().payload.after).toEqual({ checksumSalt: '[redacted]' });
    const csv = await adminCall(t.app, 'GET', `/admin/logs/export?format=csv&${raQuery({ filter: { targetId: salted._id } })}`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('redacted');
    expect(csv.body).not.toMatch(/secret-salt/);
  });
});

describe('report mails (5)', () => {
  const report = (over: Record<string, unknown> = {}) => ({ title: 'Daily', metrics: ['analytics'], apps: [appA._id], emails: ['tenancy-a@example.com'], frequency: 'daily', hour: 9, minute: 0, timezone: 'UTC', ...over });
  const outbox = async () => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox`))[0]?.n ?? 0;

  it('go only to users of the dashboard or the company: every other address is refused, nothing saved', async () => {
    const before = await tableCounts(t.app);
    await refused(await callA('POST', '/reports', owner(), report({ emails: ['tenancy-a@example.com', 'victim@elsewhere.example'] })), 400, 'ANALYTICS_REPORT_RECIPIENT');
    await refused(await callA('POST', '/reports', owner(), report({ emails: ['tenancy-b@example.com'] })), 400, 'ANALYTICS_REPORT_RECIPIENT');
    expect(await tableCounts(t.app)).toEqual(before);
    const saved = (await callA('POST', '/reports', owner(), report())).json().payload;
    const after = await tableCounts(t.app);
    await refused(await callA('PUT', `/reports/${saved._id}`, owner(), report({ emails: ['victim@elsewhere.example'] })), 400, 'ANALYTICS_REPORT_RECIPIENT');
    expect(await tableCounts(t.app)).toEqual(after);
    expect((await callA('GET', '/reports', owner())).json().payload.find((r: { _id: string }) => r._id === saved._id).emails).toEqual(['tenancy-a@example.com']);
  });

  it('carry no customer text in the subject, skip recipients who left, and "send now" stops at the daily cap', async () => {
    const colleague = await userOfA('tenancy-colleague@example.com', 'admin');
    const saved = (await callA('POST', '/reports', owner(), report({ title: 'WIN A PRIZE at evil.example', emails: ['tenancy-a@example.com', 'tenancy-colleague@example.com'] }))).json().payload;
    await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${a.owner.companyId}/users/${colleague.id}`, headers: { cookie: a.owner.cookie } });
    const since = new Date();
    const send = () => callA('POST', `/reports/${saved._id}/send`, owner(), {});
    for (let i = 0; i < REPORT_SEND_NOW_PER_DAY; i += 1) expect((await send()).statusCode).toBe(200);
    const mails = await t.app.database.rows<{ to: string; subject: string }>(`select "to", subject from mail_outbox where created_at >= '${since.toISOString()}' and subject like '%analytics report%'`);
    expect(mails).toHaveLength(REPORT_SEND_NOW_PER_DAY);
    expect(new Set(mails.map((m) => m.to))).toEqual(new Set(['tenancy-a@example.com']));
    for (const m of mails) expect(m.subject).not.toMatch(/PRIZE|evil/);

    const before = await tableCounts(t.app);
    const sent = await outbox();
    const over = await send();
    await refused(over, 429, 'ANALYTICS_REPORT_SEND_LIMIT');
    expect(over.json().message).toContain(String(REPORT_SEND_NOW_PER_DAY));
    expect(await outbox()).toBe(sent);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
