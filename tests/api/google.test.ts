import { generateKeyPair, exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, signUp, tokenOf } from '../support/auth';
import { signGoogleToken, startGoogleKeys, TEST_GOOGLE_CLIENT_ID } from '../support/google';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { totpNow } from '../support/totp';

let t: TestApp;
let keys: Awaited<ReturnType<typeof startGoogleKeys>>;

beforeAll(async () => {
  keys = await startGoogleKeys();
  t = await createTestApp({ GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: keys.jwksUrl, AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(async () => {
  await t.close();
  await keys.close();
});

const post = (url: string, payload: Record<string, unknown>, cookie?: string) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });
const signUpWith = (idToken: string, agreements = { acceptTerms: true, acceptPrivacy: true }) => post('/auth/google-signup', { idToken, ...agreements });

describe('Google sign-up and sign-in', () => {
  it('signs up a new account from a valid token: verified, via google, no password, justSignedUp', async () => {
    const res = await signUpWith(await signGoogleToken(keys.privateJwk, { email: 'Gina@Example.com', given_name: 'Gina', family_name: 'Gauss' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().payload).toMatchObject({ email: 'gina@example.com', firstName: 'Gina', lastName: 'Gauss', via: 'google', hasPassword: false, emailVerified: true, onboarding: 'company', justSignedUp: true });
    expect(String(res.headers['set-cookie'])).toMatch(/beacon_session=.*HttpOnly/);
  });

  it('signs in the same account with a fresh token, and sign-up again just signs in', async () => {
    const signIn = await post('/auth/google-signin', { idToken: await signGoogleToken(keys.privateJwk, { email: 'gina@example.com' }) });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().payload.email).toBe('gina@example.com');
    const again = await signUpWith(await signGoogleToken(keys.privateJwk, { email: 'gina@example.com' }));
    expect(again.statusCode).toBe(200);
    expect(again.json().payload.justSignedUp).toBe(false);
  });

  it('signs in a verified password account with the same address, keeping its password', async () => {
    const { verifyLink } = await signUp(t.app, 'pat@example.com');
    expect((await post('/auth/verify', { token: tokenOf(verifyLink) })).statusCode).toBe(200);
    const res = await post('/auth/google-signin', { idToken: await signGoogleToken(keys.privateJwk, { email: 'pat@example.com' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ email: 'pat@example.com', via: 'local', emailVerified: true, hasPassword: true });
  });

  it('refuses wrong audience, expired, unverified email, foreign issuer, foreign key and garbage, creating nothing', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const foreignKey = { ...(await exportJWK(privateKey)), kid: 'test-key-1', alg: 'RS256' };
    const email = 'mallory@example.com';
    const tokens = {
      audience: await signGoogleToken(keys.privateJwk, { email, aud: 'someone-else.apps.googleusercontent.com' }),
      expired: await signGoogleToken(keys.privateJwk, { email, expiresIn: -3600 }),
      unverified: await signGoogleToken(keys.privateJwk, { email, email_verified: false }),
      issuer: await signGoogleToken(keys.privateJwk, { email, iss: 'https://evil.example' }),
      key: await signGoogleToken(foreignKey, { email }),
      garbage: 'not.a.token',
    };
    const before = await tableCounts(t.app);
    for (const [name, idToken] of Object.entries(tokens)) {
      for (const res of [await signUpWith(idToken), await post('/auth/google-signin', { idToken })]) {
        expect(res.statusCode, name).toBe(401);
        expect(res.json(), name).toMatchObject({ code: 'GOOGLE_TOKEN_INVALID', message: 'Google sign-in failed. Please try again.' });
        expect(res.headers['set-cookie'], name).toBeUndefined();
      }
    }
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('sign-up needs both agreements; sign-in needs an existing account', async () => {
    const idToken = await signGoogleToken(keys.privateJwk, { email: 'newbie@example.com' });
    const before = await tableCounts(t.app);
    const noTerms = await signUpWith(idToken, { acceptTerms: false, acceptPrivacy: true });
    expect(noTerms.statusCode).toBe(400);
    expect(noTerms.json().payload.errors.acceptTerms).toEqual(['Please accept the terms of service and the privacy policy.']);
    const unknown = await post('/auth/google-signin', { idToken });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('USER_NOT_FOUND');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('asks a verified account with two-factor sign-in for its code; a token checks one code at most', async () => {
    const { cookie, verifyLink } = await signUp(t.app, 'secure@example.com');
    expect((await post('/auth/verify', { token: tokenOf(verifyLink) }, cookie)).statusCode).toBe(200);
    const { secret } = (await post('/auth/2fa/initiate', {}, cookie)).json().payload;
    expect((await post('/auth/2fa/enable', { code: totpNow(secret, -1) }, cookie)).statusCode).toBe(200);
    const idToken = await signGoogleToken(keys.privateJwk, { email: 'secure@example.com' });
    expect((await post('/auth/google-signin', { idToken })).json().code).toBe('TWO_FACTOR_REQUIRED');
    expect((await post('/auth/google-signin', { idToken, authCode: '000000' })).json().code).toBe('TWO_FACTOR_FAILED');
    // The token is spent by the code it carried: the right code needs a new sign-in with Google.
    expect((await post('/auth/google-signin', { idToken, authCode: totpNow(secret) })).json().code).toBe('GOOGLE_TOKEN_USED');
    const fresh = await signGoogleToken(keys.privateJwk, { email: 'secure@example.com' });
    const ok = await post('/auth/google-signin', { idToken: fresh, authCode: totpNow(secret) });
    expect(ok.statusCode).toBe(200);
  });

  it('lets a Google account set a first password without an old one, then sign in with it', async () => {
    const res = await signUpWith(await signGoogleToken(keys.privateJwk, { email: 'nopass@example.com' }));
    const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    expect((await post('/auth/set-password', { password: GOOD_PASSWORD }, cookie)).statusCode).toBe(200);
    const signIn = await post('/auth/signin', { email: 'nopass@example.com', password: GOOD_PASSWORD });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().payload.hasPassword).toBe(true);
  });
});

describe('without GOOGLE_CLIENT_ID', () => {
  it('refuses Google calls with 404', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.inject({ method: 'POST', url: '/api/v1/auth/google-signin', payload: { idToken: await signGoogleToken(keys.privateJwk, { email: 'x@example.com' }) } });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('GOOGLE_DISABLED');
    } finally {
      await bare.close();
    }
  });
});
