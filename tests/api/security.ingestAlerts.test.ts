import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsApp } from '../support/analytics';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder } from '../support/orders';
import { FAST_SERVERS, settledIn } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Anyone who knows an app's key can send device ids to it. An app whose admins set a checksum
 * salt counts only requests checksummed with it: a stranger's unchecksummed /i/bulk of 450 device
 * ids is refused and counts toward nothing, so it mails no MAU alert. Without a salt the count
 * stands as before, and the alert says where it comes from and links to the devices.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS });
});
afterAll(() => t.close());

const SALT = 'pepper-for-checksums';
const sample = () => t.app.worker?.scheduled['mau-sampling']();
const outbox = () => t.app.database.rows<{ to: string; subject: string; text: string; html: string }>('select "to", subject, text, html from mail_outbox order by created_at');
const devicesOf = async (appId: string) => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from analytics_monthly_devices where app_id = '${appId}'`))[0]?.n;

/** A free server (500 MAU), running, with its owner and one app. */
async function serverWithApp(email: string, app: Record<string, unknown>) {
  const owner = await companyOwner(t.app, email);
  const order = await postOrder(t.app, owner.cookie, orderBody(await loadCatalogue(t.app), owner, { planCode: FREE, name: `Server of ${email.split('@')[0]}` }));
  const server = await settledIn(t.app, owner.cookie, order.json().payload._id as string, 'running');
  return { owner, server, app: await createAnalyticsApp(t.app, server._id, owner.cookie, { name: 'Counted app', ...app }) };
}

/** One /i/bulk with `n` new device ids, form-encoded as the SDKs send it; `sign` adds a checksum256 over the body as sent. */
function bulk(appKey: string, n: number, sign?: string) {
  const requests = Array.from({ length: n }, (_, i) => ({ device_id: `stranger-device-${i}`, begin_session: '1' }));
  const body = new URLSearchParams({ app_key: appKey, requests: JSON.stringify(requests) }).toString();
  const payload = sign ? `${body}&checksum256=${createHash('sha256').update(body + sign).digest('hex')}` : body;
  return t.app.inject({ method: 'POST', url: '/i/bulk', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
}

describe('an app that requires checksummed requests (its checksum salt set by its admins)', () => {
  it("refuses a stranger's unchecksummed /i/bulk of 450 device ids: nothing counted, no alert mailed", async () => {
    const { owner, server, app } = await serverWithApp('salted-owner@example.com', {});
    // The app's admins turn it on through the app update API.
    const set = await t.app.inject({ method: 'PUT', url: `/api/v1/analytics/${server._id}/apps/${app._id}`, headers: { cookie: owner.cookie }, payload: { checksumSalt: SALT } });
    expect(set.statusCode, set.body).toBe(200);
    await sample();
    const mailsBefore = await outbox();
    const before = await tableCounts(t.app);

    const res = await bulk(app.key, 450);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ result: 'Request does not match checksum' });
    // A wrong salt is no better than none.
    expect((await bulk(app.key, 450, 'not-the-salt')).json()).toEqual({ result: 'Request does not match checksum' });
    expect(await devicesOf(app._id)).toBe(0);
    expect(await tableCounts(t.app)).toEqual(before);

    await sample();
    await t.app.mailer.idle();
    expect(await outbox()).toEqual(mailsBefore);
  });

  it('counts a correctly checksummed /i/bulk', async () => {
    const { app } = await serverWithApp('signed-owner@example.com', { checksumSalt: SALT });
    const res = await bulk(app.key, 450, SALT);
    expect(res.json()).toEqual({ result: 'Success' });
    expect(await devicesOf(app._id)).toBe(450);
  });
});

describe('an app without a checksum salt', () => {
  it('counts the 450 device ids as before, and the 80% alert says where the count comes from and links to the devices', async () => {
    const { owner, server, app } = await serverWithApp('open-owner@example.com', {});
    const res = await bulk(app.key, 450);
    expect(res.json()).toEqual({ result: 'Success' });
    expect(await devicesOf(app._id)).toBe(450);
    await sample();
    await t.app.mailer.idle();
    const alerts = (await outbox()).filter((m) => m.to === 'open-owner@example.com' && m.subject.includes('monthly active users'));
    expect(alerts.map((m) => m.subject)).toEqual(['Your Beacon server has reached 80% of its monthly active users']);
    const [mail] = alerts;
    // The 80% alert (its subject) says the share actually used.
    expect(mail?.text).toContain('450 monthly active users, 90% of the 500');
    expect(mail?.text).toContain("Where the count comes from: each distinct device id that the SDKs of the server's apps sent this month, through /i and /i/bulk.");
    expect(mail?.text).toContain('an app with a checksum salt counts only requests checksummed with it');
    const devicesLink = `/#/analytics/${server._id}/app-users`;
    expect(mail?.text).toContain(`Look up the devices in its analytics dashboard (App users): ${t.config.publicUrl}${devicesLink}`);
    expect(mail?.html).toContain(`href="${t.config.publicUrl}${devicesLink}"`);
    expect(mail?.text).toContain(`/c/${owner.companyId}/p/${owner.projectId}/deployments/${server._id}`);
  });
});
