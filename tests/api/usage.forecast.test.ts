import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompanyUsage } from '../../src/domain/usage/schemas';
import { adminCookie, call, raQuery } from '../support/admin';
import { createAnalyticsApp, hit } from '../support/analytics';
import { addMember, companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { api, FAST_SERVERS, populated, settledIn } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * Real ingestion through `/i` across simulated days (the clock is injected: the SDK's
 * timestamp, the sampling's `now`, and Date for the reads) gives a forecast, the run-out, 80% and
 * 100% mails once each, and the projected bill with the next tier's prorated price.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS });
});
afterEach(() => vi.useRealTimers());
afterAll(() => t.close());

const mails = async () => t.app.database.rows<{ to: string; subject: string; text: string }>(`select "to", subject, text from mail_outbox where subject like '%monthly active users%' order by created_at`);
const noon = (day: number) => new Date(Date.UTC(2026, 2, day, 12));
/** One simulated day: `n` new devices through `/i` at noon (the SDK's timestamp), then the evening's sampling. */
async function day(appKey: string, d: number, from: number, n: number) {
  vi.setSystemTime(noon(d));
  for (let i = 0; i < n; i += 1) {
    const res = await hit(t.app, { app_key: appKey, device_id: `device-${from + i}`, begin_session: '1', timestamp: Math.floor(noon(d).getTime() / 1000) });
    expect(res.json()).toEqual({ result: 'Success' });
  }
  const evening = new Date(Date.UTC(2026, 2, d, 23));
  vi.setSystemTime(evening);
  await t.app.worker?.scheduled['mau-sampling'](evening);
}

describe('the MAU forecast, its alerts and the bill it leads to', () => {
  it('forecasts from daily samples, mails the run-out, 80% and 100% once each, and prices the next tier', { timeout: 240_000 }, async () => {
    const owner = await companyOwner(t.app, 'forecast-owner@example.com');
    const viewerCookie = await addMember(t.app, owner.companyId, 'forecast-viewer@example.com', 'viewer');
    const admin = await adminCookie(t.app);
    const cat = await loadCatalogue(t.app);
    const order = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Forecast' }));
    const quietOrder = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Quiet' }));
    const server = await settledIn(t.app, owner.cookie, order.json().payload._id as string, 'running');
    const quiet = await settledIn(t.app, owner.cookie, quietOrder.json().payload._id as string, 'running');
    const app = await createAnalyticsApp(t.app, server._id, owner.cookie, { name: 'Forecast app' });
    vi.useFakeTimers({ toFake: ['Date'] });

    // Day 1: 20 devices. At that pace (two days' worth of doubt) the tier runs out this month.
    await day(app.key, 1, 0, 20);
    let d = await populated(t.app, owner.cookie, server._id);
    expect(d.mau).toMatchObject({ used: 20, limit: 500, forecast: { used: 20, forecast: 620, low: 20, high: 1220, basis: 'trend', days: 1, runOutOn: '2026-03-25', periodEnd: '2026-03-31' } });
    expect((await mails()).map((m) => m.subject)).toEqual(['Your Beacon server is projected to run out of monthly active users this month']);
    expect((await mails())[0]?.text).toContain('20 of the 500 monthly active users');
    expect((await mails())[0]?.text).toContain(`/deployments/${server._id}`);

    // Days 2 to 8: 40 a day reaches 80% on day 8; the run-out mail is not sent again.
    for (let n = 2; n <= 8; n += 1) await day(app.key, n, 20 + (n - 2) * 40, 40);
    d = await populated(t.app, owner.cookie, server._id);
    expect(d.mau.used).toBe(300);
    for (let n = 9; n <= 10; n += 1) await day(app.key, n, 300 + (n - 9) * 50, 50);
    expect((await mails()).map((m) => m.subject)).toEqual([
      'Your Beacon server is projected to run out of monthly active users this month',
      'Your Beacon server has reached 80% of its monthly active users',
    ]);
    expect((await mails())[1]?.text).toContain('400 monthly active users, 80% of the 500');

    // Day 11: past the tier. Data keeps coming (no cut-off), one 100% mail, then no more.
    await day(app.key, 11, 400, 120);
    await day(app.key, 12, 520, 10);
    expect((await mails()).map((m) => m.subject).slice(2)).toEqual(['Your Beacon server has reached 100% of its monthly active users']);
    expect((await mails()).every((m) => m.to === 'forecast-owner@example.com')).toBe(true);
    d = await populated(t.app, owner.cookie, server._id);
    expect(d.mau.forecast).toMatchObject({ used: 530, basis: 'trend', days: 12, runOutOn: '2026-03-11' });
    expect(d.mau.forecast?.forecast).toBeGreaterThan(530);
    expect(d.mauHistory).toEqual([expect.objectContaining({ used: 530, startsAt: '2026-03-01T00:00:00.000Z' })]);

    // The projected bill: the free plan bills nothing more past its tier; the next tier is priced now.
    const usage = await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/usage`);
    expect(usage.statusCode).toBe(200);
    const body = usage.json().payload as CompanyUsage;
    expect(body).toMatchObject({ total: { gross: '0.00' }, currency: 'USD', alerts: { share80: true, share100: true, runOut: true } });
    expect(body.servers).toEqual([
      expect.objectContaining({ _id: server._id, used: 530, limit: 500, nextBill: expect.objectContaining({ gross: '0.00' }), overTier: true, projectedOver: true, nextTier: expect.objectContaining({ plan: expect.objectContaining({ mau: 1000 }) }) }),
      expect.objectContaining({ _id: quiet._id, used: 0, overTier: false, projectedOver: false, nextTier: null }),
    ]);
    expect(Number(body.servers[0]?.nextTier?.dueNow.gross)).toBeGreaterThan(0);
    expect(body.servers[0]?.nextTier?.total.gross).toMatch(/^\d+\.\d{2}$/);

    // The admin area's filter: servers over or projected over their tier, and only those.
    const listed = await call(t.app, 'GET', `/admin/deployments?${raQuery({ filter: { mau: 'overOrProjected' }, range: [0, 49] })}`, admin);
    expect(listed.statusCode).toBe(200);
    expect((listed.json().payload as { _id: string }[]).map((r) => r._id)).toEqual([server._id]);
    const all = await call(t.app, 'GET', `/admin/deployments?${raQuery({ range: [0, 49] })}`, admin);
    expect((all.json().payload as { _id: string }[]).map((r) => r._id)).toEqual(expect.arrayContaining([server._id, quiet._id]));

    // A viewer sees no bill and changes no setting; a bad body changes nothing either.
    expect((await api(t.app, viewerCookie, 'GET', `/companies/${owner.companyId}/usage`)).statusCode).toBe(403);
    expect((await api(t.app, viewerCookie, 'PUT', `/companies/${owner.companyId}/usage-alerts`, { share80: false, share100: false, runOut: false })).statusCode).toBe(403);
    expect((await api(t.app, owner.cookie, 'PUT', `/companies/${owner.companyId}/usage-alerts`, { share80: 'no' })).statusCode).toBe(400);
    const unchanged = await t.app.database.rows<{ mau_alerts: unknown }>(`select mau_alerts from companies where id = '${owner.companyId}'`);
    expect(unchanged[0]?.mau_alerts).toEqual({ share80: true, share100: true, runOut: true });

    // An admin turns the run-out mail off: saved and audited.
    const off = await api(t.app, owner.cookie, 'PUT', `/companies/${owner.companyId}/usage-alerts`, { share80: true, share100: true, runOut: false });
    expect(off.json().payload).toEqual({ share80: true, share100: true, runOut: false });
    const audit = await t.app.database.rows<{ action: string }>(`select action from audit_logs where company_id = '${owner.companyId}' and action = 'company.mauAlerts'`);
    expect(audit).toHaveLength(1);
  });
});

describe('the projected bills', () => {
  it('leave out a server being deleted: no next bill is projected for it', async () => {
    const owner = await companyOwner(t.app, 'forecast-deleting@example.com');
    const cat = await loadCatalogue(t.app);
    const kept = await settledIn(t.app, owner.cookie, (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Kept' }))).json().payload._id as string, 'running');
    const leaving = await settledIn(t.app, owner.cookie, (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'Leaving' }))).json().payload._id as string, 'running');
    const names = async () => (await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/usage`)).json<{ payload: CompanyUsage }>().payload.servers.map((x) => x._id);
    expect((await names()).sort()).toEqual([kept._id, leaving._id].sort());
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${leaving._id}`)).statusCode).toBe(200);
    expect(await names()).toEqual([kept._id]);
  });
});
