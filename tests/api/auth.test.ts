import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie, signUp, tokenOf, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
const PUBLIC_URL = 'https://portal.example.com';

beforeAll(async () => {
  // Rate limits are raised here so that flows can run; their own tests use the defaults.
  t = await createTestApp({ PUBLIC_URL, AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>, cookie?: string) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });

describe('sign-up', () => {
  it('creates the account without signing in, mails a link built from PUBLIC_URL that signs in with a secure cookie', async () => {
    const body = { firstName: 'Ada', lastName: 'Lovelace', email: 'Ada@Example.com', password: GOOD_PASSWORD };
    // A forged Host reaches nothing (only Beacon's host and servers' own addresses are served).
    const forged = await t.app.inject({ method: 'POST', url: '/api/v1/users', headers: { host: 'evil.example.net' }, payload: body });
    expect([forged.statusCode, forged.json().code]).toEqual([404, 'UNKNOWN_HOST']);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload).toEqual({ email: 'ada@example.com' });
    expect(res.cookies).toEqual([]);

    const mail = await waitForMail(t.app, 'ada@example.com', 'Verify');
    expect(mail.link.startsWith(`${PUBLIC_URL}/#/account/verify?token=`)).toBe(true);
    expect(mail.html).toContain('Verify my email');

    const verified = await api('POST', '/auth/verify', { token: tokenOf(mail.link) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().payload).toMatchObject({ email: 'ada@example.com', firstName: 'Ada', emailVerified: true, onboarding: 'company', isAdmin: false });
    // PUBLIC_URL is https: the cookie carries the __Host- prefix.
    const cookie = verified.cookies.find((c) => c.name === '__Host-beacon_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash of the token is stored.
    const stored = await t.app.database.rows<{ token_hash: string }>('select token_hash from sessions');
    expect(stored.map((s) => s.token_hash)).not.toContain(cookie?.value);

    const me = await api('GET', '/auth/me', undefined, sessionCookie(verified));
    expect(me.statusCode).toBe(200);
    expect(me.json().payload.email).toBe('ada@example.com');
  });

  const valid = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', password: GOOD_PASSWORD };
  const refusals: [string, Record<string, unknown>, string, string][] = [
    ['a missing first name', { ...valid, firstName: '' }, 'firstName', 'This field is required.'],
    ['a one-letter last name', { ...valid, lastName: 'H' }, 'lastName', 'Use 2 to 64 characters.'],
    ['a 65-letter first name', { ...valid, firstName: 'x'.repeat(65) }, 'firstName', 'Use 2 to 64 characters.'],
    ['HTML in a name', { ...valid, firstName: '<b>Grace</b>' }, 'firstName', 'HTML is not allowed.'],
    ['an invalid email', { ...valid, email: 'grace@' }, 'email', 'Enter a valid email address.'],
    ['an email over 320 characters', { ...valid, email: `${'g'.repeat(320)}@example.com` }, 'email', 'Use at most 320 characters.'],
    ['a 7-character password', { ...valid, password: 'Ab1#xyz' }, 'password', 'Use 8 to 128 characters.'],
    ['a 129-character password', { ...valid, password: `Ab1#${'x'.repeat(125)}` }, 'password', 'Use 8 to 128 characters.'],
    ['a password without uppercase', { ...valid, password: 'tr1cky-lantern' }, 'password', 'Add an uppercase letter.'],
    ['a password without lowercase', { ...valid, password: 'TR1CKY-LANTERN' }, 'password', 'Add a lowercase letter.'],
    ['a password without a number', { ...valid, password: 'Tricky-Lantern' }, 'password', 'Add a number.'],
    ['a password without a special character', { ...valid, password: 'Tr1ckyLantern' }, 'password', 'Add a special character (# ? ! @ $ % ^ & * - . :).'],
    ['a common password', { ...valid, password: 'Password1!' }, 'password', 'This password is too common. Choose a less predictable one.'],
  ];
  it.each(refusals)('refuses %s with the rule, changing nothing', async (_name, payload, field, message) => {
    const before = await tableCounts(t.app);
    const res = await api('POST', '/users', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().payload.errors[field]).toContain(message);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('makes no second account with the same email, whatever its case, and tells the owner by mail', async () => {
    await signUp(t.app, 'twice@example.com');
    const before = await tableCounts(t.app);
    const res = await api('POST', '/users', { ...valid, email: 'TWICE@example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.cookies).toEqual([]);
    const mail = await waitForMail(t.app, 'twice@example.com', 'already exists');
    expect(mail.link.startsWith(`${PUBLIC_URL}/#/forgot-password?resetPassword=1&token=`)).toBe(true);
    const users = await t.app.database.rows<{ n: number }>("select count(*)::int as n from users where email = 'twice@example.com'");
    expect(users[0]?.n).toBe(1);
    // Only the owner's mail and its reset link were added.
    const after = await tableCounts(t.app);
    expect({ ...after, mail_outbox: before.mail_outbox, auth_tokens: before.auth_tokens }).toEqual(before);
  });
});

describe('email verification', () => {
  it('verifies with the mailed token once; a reused token is refused', async () => {
    const { cookie } = await signUp(t.app, 'verify@example.com');
    const { link } = await waitForMail(t.app, 'verify@example.com', 'Verify');
    const first = await api('POST', '/auth/verify', { token: tokenOf(link) }, cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().payload).toMatchObject({ emailVerified: true, onboarding: 'company' });
    const again = await api('POST', '/auth/verify', { token: tokenOf(link) }, cookie);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('TOKEN_INVALID');
  });

  it('signs in a browser without a session when it opens the link', async () => {
    await signUp(t.app, 'other-device@example.com');
    const { link } = await waitForMail(t.app, 'other-device@example.com', 'Verify');
    const res = await api('POST', '/auth/verify', { token: tokenOf(link) });
    expect(res.statusCode).toBe(200);
    expect((await api('GET', '/auth/me', undefined, sessionCookie(res))).statusCode).toBe(200);
  });

  it('refuses a resend within 2 minutes with the wait message', async () => {
    const { cookie } = await signUp(t.app, 'resend@example.com');
    const res = await api('POST', '/auth/verify/issue', undefined, cookie);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'VERIFICATION_ALREADY_SENT', message: 'A verification code was already sent. Please wait 2 minutes.' });
    await t.app.database.rows("update users set verification_sent_at = now() - interval '3 minutes' where email = 'resend@example.com'");
    const since = new Date();
    expect((await api('POST', '/auth/verify/issue', undefined, cookie)).statusCode).toBe(200);
    await waitForMail(t.app, 'resend@example.com', 'Verify', since);
  });

  it('refuses an expired token', async () => {
    await signUp(t.app, 'expired@example.com');
    const { link } = await waitForMail(t.app, 'expired@example.com', 'Verify');
    await t.app.database.rows("update auth_tokens set expires_at = now() - interval '1 second' where purpose = 'verify'");
    expect((await api('POST', '/auth/verify', { token: tokenOf(link) })).statusCode).toBe(400);
  });
});

describe('sign-in, sign-out and sessions', () => {
  it('answers the same for a wrong password and an unknown email', async () => {
    await signUp(t.app, 'signin@example.com');
    const wrong = await api('POST', '/auth/signin', { email: 'signin@example.com', password: 'Wrong-pass1' });
    const unknown = await api('POST', '/auth/signin', { email: 'nobody@example.com', password: 'Wrong-pass1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'The email or password is wrong.' });
  });

  it('signs in with a fresh token each time and ends the session at sign-out', async () => {
    const a = await api('POST', '/auth/signin', { email: 'signin@example.com', password: GOOD_PASSWORD });
    expect(a.statusCode).toBe(200);
    const first = sessionCookie(a);
    const b = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email: 'signin@example.com', password: GOOD_PASSWORD }, headers: { cookie: first } });
    const second = sessionCookie(b);
    expect(second).not.toBe(first);
    // The cookie presented at sign-in is rotated out.
    expect((await api('GET', '/auth/me', undefined, first)).statusCode).toBe(401);
    expect((await api('POST', '/auth/signout', undefined, second)).statusCode).toBe(200);
    const after = await api('GET', '/auth/me', undefined, second);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Authentication failed.' });
  });

  it('ends a session that was idle too long or is past its lifetime', async () => {
    const idle = sessionCookie(await api('POST', '/auth/signin', { email: 'signin@example.com', password: GOOD_PASSWORD }));
    await t.app.database.rows("update sessions set last_seen_at = now() - interval '8 days'");
    expect((await api('GET', '/auth/me', undefined, idle)).statusCode).toBe(401);
    const old = sessionCookie(await api('POST', '/auth/signin', { email: 'signin@example.com', password: GOOD_PASSWORD }));
    await t.app.database.rows("update sessions set expires_at = now() - interval '1 second'");
    expect((await api('GET', '/auth/me', undefined, old)).statusCode).toBe(401);
  });
});

describe('lockout and unlock', () => {
  it('locks after 5 wrong passwords, refuses even the right one, and the mailed link unlocks', async () => {
    await signUp(t.app, 'lock@example.com');
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) codes.push((await api('POST', '/auth/signin', { email: 'lock@example.com', password: `Wrong-pass${i}` })).json().code);
    // 'Locked' is only said to someone who knows the password.
    expect(codes).toEqual(Array(5).fill('INVALID_CREDENTIALS'));
    const right = await api('POST', '/auth/signin', { email: 'lock@example.com', password: GOOD_PASSWORD });
    expect(right.statusCode).toBe(423);
    expect(right.json().code).toBe('ACCOUNT_LOCKED');

    expect((await api('POST', '/auth/request-unlock', { email: 'lock@example.com' })).statusCode).toBe(200);
    const { link } = await waitForMail(t.app, 'lock@example.com', 'Unlock');
    expect(link.startsWith(`${PUBLIC_URL}/api/v1/auth/unlock?token=`)).toBe(true);
    const unlock = await t.app.inject({ method: 'GET', url: link.slice(PUBLIC_URL.length) });
    expect(unlock.statusCode).toBe(303);
    expect(unlock.headers.location).toBe(`${PUBLIC_URL}/#/account/signin?ref=unlocked`);
    expect((await api('POST', '/auth/signin', { email: 'lock@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
    // The link works once.
    const reused = await t.app.inject({ method: 'GET', url: link.slice(PUBLIC_URL.length) });
    expect(reused.headers.location).toBe(`${PUBLIC_URL}/#/account/signin?ref=unlock-failed`);
  });

  it('a password reset also releases the lock', async () => {
    await signUp(t.app, 'lock2@example.com');
    for (let i = 0; i < 5; i += 1) await api('POST', '/auth/signin', { email: 'lock2@example.com', password: 'Wrong-pass1' });
    await api('POST', '/auth/forgot-password', { email: 'lock2@example.com' });
    const { link } = await waitForMail(t.app, 'lock2@example.com', 'Reset');
    expect((await api('POST', '/auth/reset-password', { token: tokenOf(link), password: 'Fresh#Start42' })).statusCode).toBe(200);
    expect((await api('POST', '/auth/signin', { email: 'lock2@example.com', password: 'Fresh#Start42' })).statusCode).toBe(200);
  });
});

describe('forgot password and reset', () => {
  it('answers identically for known and unknown emails', async () => {
    await signUp(t.app, 'forgot@example.com');
    const known = await api('POST', '/auth/forgot-password', { email: 'forgot@example.com' });
    const unknown = await api('POST', '/auth/forgot-password', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    for (const url of ['/auth/request-unlock', '/auth/magic-link']) {
      const a = await api('POST', url, { email: 'forgot@example.com' });
      const b = await api('POST', url, { email: 'ghost@example.com' });
      expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    }
  });

  it('resets with the mailed link once, ends every session, and only the new password works', async () => {
    const { cookie } = await signUp(t.app, 'reset@example.com');
    const since = new Date();
    await api('POST', '/auth/forgot-password', { email: 'reset@example.com' });
    const { link } = await waitForMail(t.app, 'reset@example.com', 'Reset', since);
    expect(link.startsWith(`${PUBLIC_URL}/#/forgot-password?resetPassword=1&token=`)).toBe(true);
    const token = tokenOf(link);
    expect((await api('POST', '/auth/verify/reset-token', { token })).statusCode).toBe(200);
    expect((await api('POST', '/auth/reset-password', { token, password: 'Brand-New-77' })).statusCode).toBe(200);
    expect((await api('GET', '/auth/me', undefined, cookie)).statusCode).toBe(401);
    expect((await api('POST', '/auth/signin', { email: 'reset@example.com', password: GOOD_PASSWORD })).statusCode).toBe(401);
    expect((await api('POST', '/auth/signin', { email: 'reset@example.com', password: 'Brand-New-77' })).statusCode).toBe(200);
    const reused = await api('POST', '/auth/reset-password', { token, password: 'Another-One-88' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('TOKEN_INVALID');
    expect((await api('POST', '/auth/verify/reset-token', { token })).statusCode).toBe(400);
  });

  it('refuses a weak new password without using the token', async () => {
    const since = new Date();
    await api('POST', '/auth/forgot-password', { email: 'forgot@example.com' });
    const { link } = await waitForMail(t.app, 'forgot@example.com', 'Reset', since);
    const weak = await api('POST', '/auth/reset-password', { token: tokenOf(link), password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect((await api('POST', '/auth/verify/reset-token', { token: tokenOf(link) })).statusCode).toBe(200);
  });

  it('sends no-referrer on the app so reset tokens never leak through the Referer header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('magic link', () => {
  it('signs in once with the mailed link; a reused or expired link is refused with the spec message', async () => {
    await signUp(t.app, 'magic@example.com');
    await api('POST', '/auth/magic-link', { email: 'magic@example.com' });
    const { link } = await waitForMail(t.app, 'magic@example.com', 'sign-in link');
    expect(link.startsWith(`${PUBLIC_URL}/#/account/magic-link?token=`)).toBe(true);
    const res = await api('POST', '/auth/signin/magic-link', { token: tokenOf(link) });
    expect(res.statusCode).toBe(200);
    expect((await api('GET', '/auth/me', undefined, sessionCookie(res))).json().payload.emailVerified).toBe(true);
    const reused = await api('POST', '/auth/signin/magic-link', { token: tokenOf(link) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('This sign-in link is invalid or has expired.');

    const since = new Date();
    await api('POST', '/auth/magic-link', { email: 'magic@example.com' });
    const second = await waitForMail(t.app, 'magic@example.com', 'sign-in link', since);
    await t.app.database.rows("update auth_tokens set expires_at = now() - interval '1 second' where purpose = 'magic'");
    expect((await api('POST', '/auth/signin/magic-link', { token: tokenOf(second.link) })).statusCode).toBe(400);
  });
});

describe('set password and delete account', () => {
  it('checks the old password, refuses the same one, and logs out everywhere', async () => {
    const { cookie } = await signUpVerified(t.app, 'setpw@example.com');
    const wrong = await api('POST', '/auth/set-password', { oldPassword: 'Nope-nope-1', password: 'Newer#Pass9' }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().payload.errors.oldPassword).toEqual(['The password is wrong.']);
    const same = await api('POST', '/auth/set-password', { oldPassword: GOOD_PASSWORD, password: GOOD_PASSWORD }, cookie);
    expect(same.json().payload.errors.password).toEqual(['The new password must differ from the old one.']);
    expect((await api('POST', '/auth/set-password', { oldPassword: GOOD_PASSWORD, password: 'Newer#Pass9' }, cookie)).statusCode).toBe(200);
    expect((await api('GET', '/auth/me', undefined, cookie)).statusCode).toBe(401);
  });

  it('refuses these calls without a session: Authentication failed.', async () => {
    for (const [method, url] of [['POST', '/auth/set-password'], ['DELETE', '/auth/me'], ['POST', '/auth/verify/issue'], ['GET', '/auth/me']] as const) {
      const res = await api(method, url, { oldPassword: 'x', password: 'y' });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe('Authentication failed.');
    }
  });

  it('deletes the account with its password, and its sessions with it', async () => {
    const { cookie } = await signUp(t.app, 'leaving@example.com');
    expect((await api('DELETE', '/auth/me', { password: 'Wrong-pass1' }, cookie)).statusCode).toBe(400);
    expect((await api('DELETE', '/auth/me', { password: GOOD_PASSWORD }, cookie)).statusCode).toBe(200);
    expect((await api('GET', '/auth/me', undefined, cookie)).statusCode).toBe(401);
    expect((await api('POST', '/auth/signin', { email: 'leaving@example.com', password: GOOD_PASSWORD })).json().code).toBe('INVALID_CREDENTIALS');
  });
});

describe('cross-site requests', () => {
  it('refuses state-changing requests from another origin or site', async () => {
    const evilOrigin = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signout', headers: { origin: 'https://evil.example' } });
    expect(evilOrigin.statusCode).toBe(403);
    expect(evilOrigin.json().code).toBe('CROSS_SITE_REQUEST');
    const crossSite = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signout', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    const sameOrigin = await t.app.inject({ method: 'POST', url: '/api/v1/auth/signout', headers: { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.statusCode).toBe(200);
  });
});
