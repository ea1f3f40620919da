import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstAdmin } from '../../server/db/seed';
import { sessionCookie, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// The tools pages' server side: free app profile review requests.
let t: TestApp;
const submit = (payload: Record<string, unknown>, ip = '203.0.113.10') =>
  t.app.inject({ method: 'POST', url: '/api/v1/tools/app-profile-reviews', payload, remoteAddress: ip });
const good = (email: string) => ({ appName: 'Lantern Notes', platform: 'android', storeUrl: 'https://play.google.com/store/apps/details?id=com.lantern', email });
const reviewsOf = (email: string) => t.app.database.rows<{ app_name: string; ip: string }>(`select app_name, ip from app_profile_reviews where email = '${email}'`);

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '5' });
});
afterAll(() => t.close());

describe('POST /tools/app-profile-reviews', () => {
  it('stores the request, answers 201 and mails a confirmation to the visitor', async () => {
    const res = await submit({ ...good('Owner@Example.com'), appName: '  Lantern Notes ' }, '203.0.113.1');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().payload).toMatchObject({ _id: expect.any(String), createdAt: expect.any(String) });
    expect(await reviewsOf('owner@example.com')).toEqual([{ app_name: 'Lantern Notes', ip: '203.0.113.1' }]);
    const mail = await waitForMail(t.app, 'owner@example.com', 'free app profile review');
    expect(mail.text).toContain('business days');
    expect(mail.link).toMatch(/\/#\/tools\/dashboard-preview$/);
    // The app's name is the visitor's text: never in the subject.
    expect(mail.subject).not.toContain('Lantern');
  });

  it('refuses invalid requests with the field errors and stores nothing', async () => {
    const before = await tableCounts(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good('a@example.com'), email: 'not-an-email' }, 'email'],
      [{ ...good('b@example.com'), storeUrl: 'javascript:alert(1)' }, 'storeUrl'],
      [{ ...good('c@example.com'), storeUrl: 'ftp://files.example.com/app' }, 'storeUrl'],
      [{ ...good('d@example.com'), platform: 'symbian' }, 'platform'],
      [{ ...good('e@example.com'), appName: '<b>App</b>' }, 'appName'],
      [{ ...good('f@example.com'), appName: '' }, 'appName'],
    ];
    for (const [payload, field] of cases) {
      const res = await submit(payload, `198.51.100.${cases.findIndex((c) => c[0] === payload) + 1}`);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().payload.errors ?? {})).toContain(field);
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('limits requests per email address, whatever the IP, and a refused one stores nothing', async () => {
    for (let i = 0; i < 3; i += 1) expect((await submit(good('busy@example.com'), `192.0.2.${i + 1}`)).statusCode).toBe(201);
    await waitForMail(t.app, 'busy@example.com', 'review');
    const before = await tableCounts(t.app);
    const res = await submit(good('busy@example.com'), '192.0.2.50');
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await reviewsOf('busy@example.com')).toHaveLength(3);
  });

  it('limits requests per IP address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await submit(good(`ip${i}@example.com`), '203.0.113.99')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(await reviewsOf('ip5@example.com')).toEqual([]);
  });
});

describe('GET /admin/appProfileReviews', () => {
  it('lists the requests for a platform admin, searchable, with Content-Range, and exports them', async () => {
    await seedFirstAdmin(t.app.database.db, { email: 'boss@example.com', password: 'Boss#Pass-2026' });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'boss@example.com', password: 'Boss#Pass-2026' }, remoteAddress: '10.0.0.1' });
    const cookie = sessionCookie(signIn);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/admin/appProfileReviews?filter=${encodeURIComponent('{"q":"owner@"}')}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-range']).toBe('appProfileReviews 0-0/1');
    expect(res.json().payload[0]).toMatchObject({ appName: 'Lantern Notes', platform: 'android', email: 'owner@example.com' });
    const csv = await t.app.inject({ method: 'GET', url: '/api/v1/admin/appProfileReviews/export?format=csv', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\n')[0]).toBe('ID,App name,Platform,Store link,Email,Received');
    expect(csv.body).toContain('busy@example.com');
  });

  it('refuses a signed-in non-admin with 403, and a visitor with 401', async () => {
    const { cookie } = await signUpVerified(t.app, 'member@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/appProfileReviews', headers: { cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const exported = await t.app.inject({ method: 'GET', url: '/api/v1/admin/appProfileReviews/export?format=json', headers: { cookie } });
    expect(exported.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/appProfileReviews' })).statusCode).toBe(401);
  });
});
