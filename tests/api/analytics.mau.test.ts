import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsApp, hit } from '../support/analytics';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { FAST_SERVERS, populated, settledIn } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The tier the customer pays for is counted (distinct devices a month), the
 * company's admins are warned once at 80% and once at 100% (the one alert rule, mauRule.ts), and, as
 * SPEC names no cut-off, data keeps flowing past the tier.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS });
});
afterAll(() => t.close());

const warnings = async () => t.app.database.rows<{ to: string; subject: string; text: string }>(`select "to", subject, text from mail_outbox where subject like '%monthly active users%' order by created_at`);
const sample = () => t.app.worker?.scheduled['mau-sampling']();
/** `n` new devices through one bulk call (each request applied as if sent alone). */
async function devices(appKey: string, from: number, n: number) {
  const requests = Array.from({ length: n }, (_, i) => ({ device_id: `device-${from + i}`, begin_session: '1' }));
  const res = await t.app.inject({ method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ app_key: appKey, requests: JSON.stringify(requests) }).toString() });
  expect(res.json()).toEqual({ result: 'Success' });
}

describe('the MAU tier', () => {
  it('warns the company admins once at 80% and once at 100%, and never stops the data', async () => {
    const owner = await companyOwner(t.app, 'mau-owner@example.com');
    const order = await postOrder(t.app, owner.cookie, orderBody(await loadCatalogue(t.app), owner, { planCode: FREE, name: 'Counted' }));
    const server = await settledIn(t.app, owner.cookie, order.json().payload._id as string, 'running');
    expect(server.mau.limit).toBe(500);
    const app = await createAnalyticsApp(t.app, server._id, owner.cookie, { name: 'Counted app' });
    // Only the share mails here (the run-out one depends on the day of the month: usage.forecast.test.ts).
    const alerts = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}/usage-alerts`, headers: { cookie: owner.cookie }, payload: { share80: true, share100: true, runOut: false } });
    expect(alerts.statusCode).toBe(200);

    await devices(app.key, 0, 399);
    await sample();
    expect(await warnings()).toEqual([]);

    await devices(app.key, 399, 1);
    await sample();
    await sample();
    const first = await warnings();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ to: 'mau-owner@example.com', subject: 'Your Beacon server has reached 80% of its monthly active users' });
    expect(first[0]?.text).toContain('400 monthly active users, 80% of the 500');
    expect(first[0]?.text).toContain(`/deployments/${server._id}`);

    await devices(app.key, 400, 110);
    await sample();
    await sample();
    const second = await warnings();
    expect(second.map((m) => m.subject)).toEqual(['Your Beacon server has reached 80% of its monthly active users', 'Your Beacon server has reached 100% of its monthly active users']);
    // Past the tier the data still comes in and is counted: no silent cut-off.
    expect((await hit(t.app, { app_key: app.key, device_id: 'one-more', begin_session: '1' })).json()).toEqual({ result: 'Success' });
    await sample();
    expect((await populated(t.app, owner.cookie, server._id)).mau.used).toBe(511);
    expect(await warnings()).toHaveLength(2);
  });
});

