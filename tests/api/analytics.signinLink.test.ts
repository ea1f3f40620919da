import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signServerLink } from '../../server/services/serverSignInLink';
import { analyticsServer } from '../support/analytics';
import { loadCatalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let a: Awaited<ReturnType<typeof analyticsServer>>;
let b: Awaited<ReturnType<typeof analyticsServer>>;
const userOf = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  const cat = await loadCatalogue(t.app);
  a = await analyticsServer(t.app, cat, 'link-a@example.com');
  b = await analyticsServer(t.app, cat, 'link-b@example.com');
});
afterAll(() => t.close());

const open = (deploymentId: string, cookie: string, body: unknown) => t.app.inject({ method: 'POST', url: `/api/v1/analytics/${deploymentId}/open`, headers: { cookie }, payload: body as Record<string, unknown> });
const inAMinute = () => new Date(Date.now() + 60_000);

describe('the server sign-in link', () => {
  it('opens the dashboard with a genuine, unexpired link made for this user and server', async () => {
    const link = signServerLink(t.app.keyring, a.deploymentId, await userOf('link-a@example.com'), inAMinute());
    const res = await open(a.deploymentId, a.owner.cookie, { link });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payload.deploymentId).toBe(a.deploymentId);
  });

  it('is what GET /auth/{product}-server hands out (the same claims and signature)', async () => {
    const userId = await userOf('link-a@example.com');
    const link = signServerLink(t.app.keyring, a.deploymentId, userId, new Date(1_900_000_000_000));
    expect(link).toEqual({ user: userId, server: a.deploymentId, exp: '1900000000', sig: expect.stringMatching(/^[^.]+\.[A-Za-z0-9_-]{43}$/) });
  });

  it('refuses a forged, altered, someone else’s or another server’s link, and an expired one, changing nothing', async () => {
    const userA = await userOf('link-a@example.com');
    const userB = await userOf('link-b@example.com');
    const good = signServerLink(t.app.keyring, a.deploymentId, userA, inAMinute());
    const [keyId] = good.sig.split('.');
    const cases: [unknown, number, string][] = [
      [{ link: { ...good, sig: `${keyId}.${'A'.repeat(43)}` } }, 403, 'ANALYTICS_SIGNIN_LINK_INVALID'],
      [{ link: { ...good, sig: 'nonsense' } }, 403, 'ANALYTICS_SIGNIN_LINK_INVALID'],
      [{ link: { ...good, exp: String(Number(good.exp) + 3600) } }, 403, 'ANALYTICS_SIGNIN_LINK_INVALID'],
      [{ link: signServerLink(t.app.keyring, a.deploymentId, userB, inAMinute()) }, 403, 'ANALYTICS_SIGNIN_LINK_INVALID'],
      [{ link: signServerLink(t.app.keyring, b.deploymentId, userA, inAMinute()) }, 403, 'ANALYTICS_SIGNIN_LINK_INVALID'],
      [{ link: signServerLink(t.app.keyring, a.deploymentId, userA, new Date(Date.now() - 1000)) }, 410, 'ANALYTICS_SIGNIN_LINK_EXPIRED'],
      [{ link: { ...good, exp: 'soon' } }, 400, 'VALIDATION_FAILED'],
    ];
    const before = await tableCounts(t.app);
    for (const [body, status, code] of cases) {
      const res = await open(a.deploymentId, a.owner.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().code).toBe(code);
    }
    // Someone else's server is not reached through a link at all: its company refuses a stranger first.
    const other = await open(b.deploymentId, a.owner.cookie, { link: { ...signServerLink(t.app.keyring, b.deploymentId, userA, inAMinute()), sig: good.sig } });
    expect(other.json().code).toBe('NOT_A_MEMBER');
    expect(await tableCounts(t.app)).toEqual(before);
    const expired = await open(a.deploymentId, a.owner.cookie, { link: signServerLink(t.app.keyring, a.deploymentId, userA, new Date(Date.now() - 1000)) });
    expect(expired.json().message).toBe('This sign-in link has expired. Open the dashboard again from your server’s page.');
  });

  it('keeps plain navigation working for a member already on the dashboard', async () => {
    const res = await open(a.deploymentId, a.owner.cookie, {});
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/analytics/${a.deploymentId}/open`, headers: { cookie: a.owner.cookie } })).statusCode).toBe(200);
  });
});
