import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDto, ReportDto } from '../../analytics/domain/schemas';
import { nextRunAt } from '../../analytics/domain/reports';
import { analyticsServer, createAnalyticsApp, dashboard, hit } from '../support/analytics';
import { waitForMail } from '../support/auth';
import { addMember, loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let server: Awaited<ReturnType<typeof analyticsServer>>;
let other: Awaited<ReturnType<typeof analyticsServer>>;
let call: ReturnType<typeof dashboard>;
let owner: { cookie: string };
let shop: AppDto;
let blog: AppDto;
let otherApp: AppDto;
const DAY = 86_400_000;
const yesterdayNoon = Date.parse(`${new Date(Date.now() - DAY).toISOString().slice(0, 10)}T12:00:00Z`);

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  const cat = await loadCatalogue(t.app);
  server = await analyticsServer(t.app, cat, 'reports-owner@example.com');
  other = await analyticsServer(t.app, cat, 'reports-other@example.com');
  call = dashboard(t.app, server.deploymentId);
  owner = { cookie: server.owner.cookie };
  shop = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Shop' });
  blog = await createAnalyticsApp(t.app, server.deploymentId, owner.cookie, { name: 'Blog' });
  otherApp = await createAnalyticsApp(t.app, other.deploymentId, other.owner.cookie, { name: 'Other' });
  // Reports go only to users of the dashboard or the company: the recipients below are company users.
  for (const name of ['boss', 'team', 'numbers', 'second', 'scheduled', 'off', 'broken', 'fine']) await addMember(t.app, server.owner.companyId, `${name}@example.com`, 'viewer');
  // Yesterday (UTC, the apps' time zone): 2 sessions of new users, 90 s, 5 purchases (sum 50), 2 signups, 1 hidden share.
  const ts = String(yesterdayNoon);
  await hit(t.app, { app_key: shop.key, device_id: 'd1', timestamp: ts, begin_session: '1', session_duration: '60', events: [{ key: 'purchase', count: 3, sum: 30 }, { key: 'signup', count: 2 }, { key: 'share' }] });
  await hit(t.app, { app_key: shop.key, device_id: 'd2', timestamp: String(yesterdayNoon + 1000), begin_session: '1', session_duration: '30', events: [{ key: 'purchase', count: 2, sum: 20 }] });
  // Today: not in a daily report sent today.
  await hit(t.app, { app_key: shop.key, device_id: 'd3', begin_session: '1', events: [{ key: 'purchase', count: 100 }] });
  await call('PUT', `/apps/${shop._id}/events/share`, owner, { visible: false });
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({ title: 'Daily shop', metrics: ['analytics', 'events'], apps: [shop._id], emails: ['boss@example.com'], frequency: 'daily', hour: 9, minute: 30, timezone: 'UTC', ...over });
async function refused(res: { statusCode: number; json(): { code: string } }, status: number, code: string) {
  expect(res.statusCode, res.json().code).toBe(status);
  expect(res.json().code).toBe(code);
}
async function create(over: Record<string, unknown> = {}): Promise<ReportDto> {
  const res = await call('POST', '/reports', owner, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().payload;
}
const userId = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';

describe('report manager', () => {
  it('creates, lists, edits, switches and deletes a report, each change audited', async () => {
    const report = await create({ emails: ['Boss@Example.com', 'boss@example.com', 'team@example.com'] });
    expect(report).toMatchObject({ title: 'Daily shop', apps: [shop._id], emails: ['boss@example.com', 'team@example.com'], frequency: 'daily', enabled: true, dayOfWeek: null, lastSentAt: null });
    expect(report.createdBy?._id).toBe(server.session.member._id);
    expect((await call('GET', '/reports', owner)).json().payload.map((r: ReportDto) => r._id)).toContain(report._id);

    const edited = (await call('PUT', `/reports/${report._id}`, owner, body({ title: 'Weekly shop', frequency: 'weekly', dayOfWeek: 1, dayOfMonth: 12 }))).json().payload;
    expect(edited).toMatchObject({ title: 'Weekly shop', frequency: 'weekly', dayOfWeek: 1, dayOfMonth: null });
    expect(new Date(edited.nextRunAt).getUTCDay()).toBe(1);

    const off = (await call('PUT', `/reports/${report._id}/status`, owner, { enabled: false })).json().payload;
    expect(off.enabled).toBe(false);
    expect((await call('DELETE', `/reports/${report._id}`, owner)).statusCode).toBe(200);
    await refused(await call('DELETE', `/reports/${report._id}`, owner), 404, 'ANALYTICS_REPORT_NOT_FOUND');
    const audit = await t.app.database.rows<{ action: string }>(`select action from audit_logs where target_id = '${report._id}' order by at`);
    expect(audit.map((a) => a.action)).toEqual(['analyticsReport.create', 'analyticsReport.update', 'analyticsReport.update', 'analyticsReport.delete']);
  });

  it('refuses invalid reports and apps of another dashboard, changing nothing', async () => {
    const report = await create();
    const before = await tableCounts(t.app);
    for (const bad of [{ title: '' }, { apps: [] }, { emails: [] }, { emails: ['not-an-address'] }, { metrics: [] }, { metrics: ['crashes'] }, { frequency: 'hourly' }, { hour: 24 }, { minute: -1 }, { timezone: 'Mars/Olympus' }, { frequency: 'weekly' }, { frequency: 'monthly', dayOfMonth: 31 }, { frequency: 'monthly' }]) {
      await refused(await call('POST', '/reports', owner, body(bad)), 400, 'VALIDATION_FAILED');
      await refused(await call('PUT', `/reports/${report._id}`, owner, body(bad)), 400, 'VALIDATION_FAILED');
    }
    expect((await call('POST', '/reports', owner, body({ frequency: 'weekly' }))).json().payload.errors.dayOfWeek).toBeTruthy();
    await refused(await call('POST', '/reports', owner, body({ apps: [shop._id, otherApp._id] })), 404, 'ANALYTICS_APP_NOT_FOUND');
    await refused(await call('PUT', `/reports/${report._id}`, owner, body({ apps: [otherApp._id] })), 404, 'ANALYTICS_APP_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await call('GET', `/reports`, owner)).json().payload.find((r: ReportDto) => r._id === report._id).apps).toEqual([shop._id]);
  });

  it('is managed by the admins of every app it covers; a user of the apps sees it but changes nothing', async () => {
    const report = await create({ apps: [shop._id, blog._id] });
    const email = 'reports-viewer@example.com';
    const cookie = await addMember(t.app, server.owner.companyId, email, 'viewer');
    const added = await call('POST', '/members', owner, { userId: await userId(email), adminOf: [shop._id], userOf: [blog._id] });
    expect(added.statusCode).toBe(201);
    const viewer = { cookie };
    const before = await tableCounts(t.app);
    expect((await call('GET', '/reports', viewer)).json().payload.map((r: ReportDto) => r._id)).toContain(report._id);
    await refused(await call('POST', '/reports', viewer, body({ apps: [shop._id, blog._id] })), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('PUT', `/reports/${report._id}`, viewer, body()), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('PUT', `/reports/${report._id}/status`, viewer, { enabled: false }), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('DELETE', `/reports/${report._id}`, viewer), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    await refused(await call('POST', `/reports/${report._id}/send`, viewer, {}), 403, 'ANALYTICS_APP_ADMIN_REQUIRED');
    expect(await tableCounts(t.app)).toEqual(before);
    // Admin of the shop: a report on the shop alone is theirs to make.
    expect((await call('POST', '/reports', viewer, body({ title: 'Mine' }))).statusCode).toBe(201);
  });

  it('never shows or changes another dashboard’s reports', async () => {
    const report = await create();
    const callOther = dashboard(t.app, other.deploymentId);
    const stranger = { cookie: other.owner.cookie };
    const before = await tableCounts(t.app);
    await refused(await call('GET', '/reports', stranger), 403, 'ANALYTICS_NOT_MEMBER');
    await refused(await call('POST', `/reports/${report._id}/send`, stranger, {}), 403, 'ANALYTICS_NOT_MEMBER');
    for (const [method, path, payload] of [['PUT', `/reports/${report._id}`, body({ apps: [otherApp._id] })], ['PUT', `/reports/${report._id}/status`, { enabled: false }], ['DELETE', `/reports/${report._id}`, undefined], ['POST', `/reports/${report._id}/send`, {}], ['GET', `/reports/${report._id}/preview`, undefined]] as const) {
      await refused(await callOther(method, path, stranger, payload), 404, 'ANALYTICS_REPORT_NOT_FOUND');
    }
    expect((await callOther('GET', '/reports', stranger)).json().payload).toEqual([]);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('"Send now" mails the period’s real numbers through the outbox and records the run in the jobs list', async () => {
    const report = await create({ title: 'Numbers', emails: ['numbers@example.com', 'second@example.com'] });
    const after = new Date();
    expect((await call('POST', `/reports/${report._id}/send`, owner, {})).statusCode).toBe(200);
    const mail = await waitForMail(t.app, 'numbers@example.com', 'analytics report', after);
    // No customer text in the subject: the title is in the body only.
    expect(mail.subject).toMatch(/^Your daily Beacon analytics report for \d{4}-\d{2}-\d{2}$/);
    expect(mail.text).toContain(`Your daily analytics report for ${new Date(yesterdayNoon).toISOString().slice(0, 10)}.`);
    expect(mail.text).toContain('Shop\n  Total sessions: 2\n  New users: 2\n  Total session duration: 1m 30s\n  Events: 8\n  Top events:\n    purchase: 5 (sum 50)\n    signup: 2\n');
    expect(mail.text).not.toContain('share');
    expect(mail.text).toContain(`/#/analytics/${server.deploymentId}`);
    expect(mail.html).toContain('<td style="padding:4px 12px 4px 0;font-weight:600">2</td>');
    await waitForMail(t.app, 'second@example.com', 'analytics report', after);
    const jobs = (await call('GET', '/jobs', owner)).json().payload;
    expect(jobs.find((j: { kind: string; params: { reportId?: string } }) => j.kind === 'report' && j.params.reportId === report._id)).toMatchObject({ status: 'completed', params: { recipients: 2, scheduled: false } });
    expect((await call('GET', `/reports/${report._id}/preview`, owner)).json().payload.text).toBe(mail.text);
  });

  it('works out the next due time in the report’s time zone', () => {
    const from = new Date('2026-03-07T15:00:00Z'); // a Saturday
    expect(nextRunAt({ frequency: 'daily', hour: 9, minute: 30, timezone: 'UTC', dayOfWeek: null, dayOfMonth: null }, from).toISOString()).toBe('2026-03-08T09:30:00.000Z');
    expect(nextRunAt({ frequency: 'daily', hour: 9, minute: 30, timezone: 'Asia/Tokyo', dayOfWeek: null, dayOfMonth: null }, from).toISOString()).toBe('2026-03-08T00:30:00.000Z');
    // New York moves to summer time on 8 March 2026: 9:00 is 14:00 UTC before, 13:00 UTC after.
    expect(nextRunAt({ frequency: 'daily', hour: 9, minute: 0, timezone: 'America/New_York', dayOfWeek: null, dayOfMonth: null }, from).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextRunAt({ frequency: 'daily', hour: 9, minute: 0, timezone: 'America/New_York', dayOfWeek: null, dayOfMonth: null }, new Date('2026-03-06T15:00:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(nextRunAt({ frequency: 'weekly', hour: 8, minute: 0, timezone: 'Europe/Berlin', dayOfWeek: 1, dayOfMonth: null }, from).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(nextRunAt({ frequency: 'monthly', hour: 0, minute: 15, timezone: 'Pacific/Auckland', dayOfWeek: null, dayOfMonth: 1 }, from).toISOString()).toBe('2026-03-31T11:15:00.000Z');
    // Due at 15:00 exactly: the next one is the day after, never the same instant again.
    expect(nextRunAt({ frequency: 'daily', hour: 15, minute: 0, timezone: 'UTC', dayOfWeek: null, dayOfMonth: null }, from).toISOString()).toBe('2026-03-08T15:00:00.000Z');
  });

  it('the reports schedule sends each due report once at its time and moves it to its next time', async () => {
    const report = await create({ title: 'Scheduled', emails: ['scheduled@example.com'], timezone: 'Asia/Tokyo', hour: 7, minute: 0 });
    const switchedOff = await create({ title: 'Switched off', emails: ['off@example.com'] });
    await call('PUT', `/reports/${switchedOff._id}/status`, owner, { enabled: false });
    const due = new Date(report.nextRunAt);
    expect(due.getTime()).toBeGreaterThan(Date.now());
    const schedule = { frequency: 'daily', hour: 7, minute: 0, timezone: 'Asia/Tokyo', dayOfWeek: null, dayOfMonth: null } as const;
    expect(due.toISOString()).toBe(nextRunAt(schedule, new Date(Date.parse(report.createdAt) - 1000)).toISOString());

    // A second before its time it stays (the file's other reports may fall due earlier, whatever
    // the time of day the suite runs at, and go).
    await t.app.analytics.runDueReports(new Date(due.getTime() - 1000));
    expect((await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox where "to" = 'scheduled@example.com' and subject like '%analytics report%'`))[0]?.n).toBe(0);
    const [waiting] = await t.app.database.rows<{ next_run_at: string }>(`select next_run_at from analytics_reports where id = '${report._id}'`);
    expect(new Date(waiting?.next_run_at ?? '').toISOString()).toBe(due.toISOString());
    const sentAt = new Date(due.getTime() + 30_000);
    // Every other report of this file is due by then too: count only this one's.
    await t.app.analytics.runDueReports(sentAt);
    const mail = await waitForMail(t.app, 'scheduled@example.com', 'analytics report');
    expect(mail.text).toContain('Your daily analytics report for');
    const [row] = await t.app.database.rows<{ next_run_at: string; last_sent_at: string }>(`select next_run_at, last_sent_at from analytics_reports where id = '${report._id}'`);
    expect(new Date(row?.next_run_at ?? '').toISOString()).toBe(new Date(due.getTime() + DAY).toISOString());
    expect(new Date(row?.last_sent_at ?? '').toISOString()).toBe(sentAt.toISOString());
    const runs = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_jobs where kind = 'report' and params->>'reportId' = '${report._id}' and params->>'scheduled' = 'true'`);
    expect(runs[0]?.n).toBe(1);
    expect(await t.app.analytics.runDueReports(sentAt)).toBe(0);
    expect((await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox where "to" = 'off@example.com' and subject like '%analytics report%'`))[0]?.n).toBe(0);
  });

  it('records a report it cannot render as a failed job, moves it on, and still sends the others', async () => {
    const broken = await create({ title: 'Broken', emails: ['broken@example.com'] });
    const fine = await create({ title: 'Fine', emails: ['fine@example.com'] });
    // A row no form can make: an app id that is not one.
    await t.app.database.rows(`update analytics_reports set app_ids = '["not-a-uuid"]'::jsonb where id = '${broken._id}'`);
    const at = new Date(Math.max(Date.parse(broken.nextRunAt), Date.parse(fine.nextRunAt)) + 1000);
    await t.app.analytics.runDueReports(at);
    await waitForMail(t.app, 'fine@example.com', 'analytics report');
    const [job] = await t.app.database.rows<{ status: string }>(`select status from analytics_jobs where kind = 'report' and params->>'reportId' = '${broken._id}'`);
    expect(job?.status).toBe('failed');
    const [row] = await t.app.database.rows<{ next_run_at: string }>(`select next_run_at from analytics_reports where id = '${broken._id}'`);
    expect(new Date(row?.next_run_at ?? '').getTime()).toBeGreaterThan(at.getTime());
    expect((await t.app.database.rows<{ n: number }>(`select count(*)::int as n from mail_outbox where "to" = 'broken@example.com' and subject like '%analytics report%'`))[0]?.n).toBe(0);
  });
});
