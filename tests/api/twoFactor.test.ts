import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { totpNow } from '../support/totp';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });
const codeAt = totpNow;

describe('two-factor sign-in', () => {
  it('sets up with a QR code, then sign-in needs a fresh code; recovery codes work once', async () => {
    const { cookie } = await signUpVerified(t.app, 'mfa@example.com');
    const setup = (await api('POST', '/auth/2fa/initiate', cookie)).json().payload;
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/Beacon:mfa%40example\.com\?/);
    expect(setup.qrImage).toMatch(/^data:image\/png;base64,/);

    const wrongEnable = await api('POST', '/auth/2fa/enable', cookie, { code: codeAt(setup.secret, 5) });
    expect(wrongEnable.statusCode).toBe(400);
    const enabled = await api('POST', '/auth/2fa/enable', cookie, { code: codeAt(setup.secret) });
    expect(enabled.statusCode).toBe(200);
    const recovery: string[] = enabled.json().payload.recoveryCodes;
    expect(recovery).toHaveLength(10);
    expect((await api('GET', '/auth/me', cookie)).json().payload.mfaEnabled).toBe(true);

    const creds = { email: 'mfa@example.com', password: GOOD_PASSWORD };
    const required = await api('POST', '/auth/signin', undefined, creds);
    expect(required.statusCode).toBe(401);
    expect(required.json().code).toBe('TWO_FACTOR_REQUIRED');
    const wrong = await api('POST', '/auth/signin', undefined, { ...creds, authCode: codeAt(setup.secret, 10) });
    expect(wrong.json()).toMatchObject({ code: 'TWO_FACTOR_FAILED', message: 'The code is wrong or has expired.' });

    // The code used to enable is spent: the next step's code (inside the ±1 window) signs in once.
    const next = codeAt(setup.secret, 1);
    const ok = await api('POST', '/auth/signin', undefined, { ...creds, authCode: next });
    expect(ok.statusCode).toBe(200);
    expect((await api('POST', '/auth/signin', undefined, { ...creds, authCode: next })).json().code).toBe('TWO_FACTOR_FAILED');

    const rec = recovery[0] ?? '';
    expect((await api('POST', '/auth/signin', undefined, { ...creds, authCode: rec })).statusCode).toBe(200);
    expect((await api('POST', '/auth/signin', undefined, { ...creds, authCode: rec })).json().code).toBe('TWO_FACTOR_FAILED');

    const session = sessionCookie(ok);
    const disabled = await api('POST', '/auth/2fa/disable', session, { code: recovery[1] ?? '' });
    expect(disabled.statusCode).toBe(200);
    expect((await api('POST', '/auth/signin', undefined, creds)).statusCode).toBe(200);
  });
});
