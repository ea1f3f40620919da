import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie, signUp, tokenOf, waitForMail } from '../support/auth';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const configuration = {
  name: 'From the pricing page',
  cycle: 'year',
  order: {
    planId: 'plan-1',
    planCode: 'v3.mau_1_000_gcp.base',
    providerId: 'prov-1',
    planConfig: { region: 'region-1', size: 'size-1', features: ['funnels'], provider: 'gcp' },
    specialFeatures: { domain: 'd1', retention: 'r6', backup: 'bd' },
  },
};

const signUpWith = (email: string, pendingOrder: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName: 'Grace', lastName: 'Hopper', email, password: GOOD_PASSWORD, pendingOrder } });
const read = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me/pending-order', headers: { cookie } });
const kept = async (email: string) => (await t.app.database.rows<{ pending_order: unknown }>(`select pending_order from users where email = '${email}'`))[0]?.pending_order ?? null;

describe('the pre-login order is kept with the account', () => {
  it('signed up with a configuration, verified from a fresh client with no storage: the configuration comes back, until cleared', async () => {
    const email = 'grace-elsewhere@example.com';
    expect((await signUpWith(email, configuration)).statusCode).toBe(201);
    const mail = await waitForMail(t.app, email, 'Verify');
    // Another device: no cookie, no storage, only the link.
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { token: tokenOf(mail.link) } });
    expect(verified.statusCode).toBe(200);
    const cookie = sessionCookie(verified);
    const answer = await read(cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().payload).toEqual({ configuration });

    const cleared = await t.app.inject({ method: 'DELETE', url: '/api/v1/users/me/pending-order', headers: { cookie } });
    expect(cleared.statusCode).toBe(200);
    expect((await read(cookie)).json().payload).toEqual({ configuration: null });
    const audits = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from audit_logs where action = 'user.pendingOrderCleared'`);
    expect(audits[0]?.n).toBe(1);
    // Clearing again changes nothing and audits nothing.
    await t.app.inject({ method: 'DELETE', url: '/api/v1/users/me/pending-order', headers: { cookie } });
    expect((await t.app.database.rows<{ n: number }>(`select count(*)::int as n from audit_logs where action = 'user.pendingOrderCleared'`))[0]?.n).toBe(1);
  });

  it('a sign-up with an address already taken plants nothing on that account', async () => {
    const email = 'taken-owner@example.com';
    const owner = await signUp(t.app, email);
    expect((await signUpWith(email, configuration)).statusCode).toBe(201);
    expect(await kept(email)).toBeNull();
    expect((await read(owner.cookie)).json().payload).toEqual({ configuration: null });
  });

  it('a malformed configuration is refused and no account is made', async () => {
    const email = 'malformed@example.com';
    const res = await signUpWith(email, { ...configuration, cycle: 'week', order: { ...configuration.order, planConfig: { ...configuration.order.planConfig, features: 'all' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((await t.app.database.rows(`select id from users where email = '${email}'`)).length).toBe(0);
  });

  it('signed out, the configuration cannot be read', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me/pending-order' });
    expect(res.statusCode).toBe(401);
  });
});
