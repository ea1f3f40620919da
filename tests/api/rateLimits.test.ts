import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signIn = (email: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', remoteAddress: ip, payload: { email, password: 'Wrong-pass1' } });

describe('auth rate limits (defaults)', () => {
  it('answers the 6th quick sign-in from one IP with 429 in the envelope', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await signIn(`ip-${i}@example.com`, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const res = await signIn('ip-7@example.com', '203.0.113.7');
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', payload: {} });
    expect(res.json().message).toMatch(/^Too many requests\. Please try again in /);
    expect(res.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await signIn('ip-8@example.com', '203.0.113.8')).statusCode).toBe(401);
  });

  it('limits attempts on one account across many addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await signIn('target@example.com', `198.51.100.${i + 1}`)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('limits password-reset mails per account, so nobody can flood an inbox', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', remoteAddress: `192.0.2.${i + 1}`, payload: { email: 'inbox@example.com' } });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
