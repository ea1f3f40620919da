import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { GOOD_PASSWORD, sessionCookie, signUp, tokenOf, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { signGoogleToken, startGoogleKeys, TEST_GOOGLE_CLIENT_ID } from '../support/google';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { totpNow } from '../support/totp';

/**
 * Account attacks, each performed through the API: the attack must fail and leave
 * the account as it was. (Logs, infrastructure, admin and company attacks live in the other security files.)
 */
let t: TestApp;
let keys: Awaited<ReturnType<typeof startGoogleKeys>>;
const SECRET_KEYS = `k1:${randomBytes(32).toString('base64')}`;

beforeAll(async () => {
  keys = await startGoogleKeys();
  t = await createTestApp({ GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: keys.jwksUrl, AUTH_RATE_LIMIT_PER_MINUTE: '1000', SECRET_KEYS });
});
afterAll(async () => {
  await t.close();
  await keys.close();
});

type Body = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Body, cookie?: string, ip = '127.0.0.1') =>
  t.app.inject({ method, url: `/api/v1${url}`, remoteAddress: ip, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {} });
const post = (url: string, payload: Body, cookie?: string, ip?: string) => call('POST', url, payload, cookie, ip);
const me = (cookie: string) => call('GET', '/auth/me', undefined, cookie);
const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const userRow = async (email: string) =>
  (await t.app.database.rows<{ id: string; password_hash: string | null; mfa_enabled: boolean; totp_secret: string | null; email_verified_at: Date | null; via: string }>(
    `select id, password_hash, mfa_enabled, totp_secret, email_verified_at, via from users where email = '${email}'`,
  ))[0];

/** Turns on two-factor sign-in for a signed-in session; returns the secret and the recovery codes. */
async function enableTwoFactor(cookie: string) {
  const { secret } = (await post('/auth/2fa/initiate', {}, cookie)).json().payload as { secret: string };
  const enabled = await post('/auth/2fa/enable', { code: totpNow(secret, -1) }, cookie);
  expect(enabled.statusCode).toBe(200);
  return { secret, recoveryCodes: enabled.json().payload.recoveryCodes as string[] };
}

/**
 * Two-factor sign-in on an address nobody proved: refused now, so this is an account set up before
 * that rule (the address counted as proved while it was set up). Returns the secret.
 */
async function legacyTwoFactor(cookie: string, email: string) {
  expect((await post('/auth/2fa/initiate', {}, cookie)).json().code).toBe('EMAIL_NOT_VERIFIED');
  await t.app.database.rows(`update users set email_verified_at = now() where email = '${email}'`);
  const { secret } = await enableTwoFactor(cookie);
  await t.app.database.rows(`update users set email_verified_at = null where email = '${email}'`);
  return secret;
}

/** A verified company admin and a pending invitation for `email`; returns the invitation token. */
async function invite(email: string, role: 'admin' | 'viewer' = 'viewer') {
  const owner = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const { cookie } = await signUpVerified(t.app, owner);
  const company = (await post('/companies?onboarding=1', { name: 'Difference Engines' }, cookie)).json().payload as { _id: string };
  const sent = new Date();
  expect((await post(`/companies/${company._id}/invitations`, { email, role }, cookie)).statusCode).toBeLessThan(300);
  const mail = await waitForMail(t.app, email, 'invited', sent);
  return { token: tokenOf(mail.link), companyId: company._id };
}

const membership = async (companyId: string, email: string) =>
  (await t.app.database.rows<{ role: string }>(`select m.role from company_members m join users u on u.id = m.user_id where m.company_id = '${companyId}' and u.email = '${email}'`))[0]?.role ?? null;

describe('1. an invitation to an address someone pre-registered', () => {
  it('hands the unverified account to whoever accepts: the registrant keeps no password, session or second factor', async () => {
    const email = 'invitee@example.com';
    const attacker = await signUp(t.app, email, 'Attacker-Pass1');
    await legacyTwoFactor(attacker.cookie, email);
    const { token, companyId } = await invite(email);

    const check = await post('/companies/users/check-invited', { token });
    expect(check.json().payload.existingUser).toBe(false);
    const accepted = await post('/companies/users/invited', { token, firstName: 'Real', lastName: 'Owner', designation: 'dev', password: 'Owner#Pass42' });
    expect(accepted.statusCode).toBe(201);

    expect((await me(attacker.cookie)).statusCode).toBe(401);
    expect((await post('/auth/signin', { email, password: 'Attacker-Pass1' })).statusCode).toBe(401);
    const row = await userRow(email);
    expect(row).toMatchObject({ mfa_enabled: false, totp_secret: null });
    expect(row?.email_verified_at).not.toBeNull();
    const owner = await post('/auth/signin', { email, password: 'Owner#Pass42' });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().payload).toMatchObject({ firstName: 'Real', emailVerified: true, mfaEnabled: false });
    expect(await membership(companyId, email)).toBe('viewer');
    const leftovers = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from auth_tokens where user_id = '${row?.id}' and used_at is null`);
    expect(leftovers[0]?.n).toBe(0);
  });

  it('lets a verified account join only from a browser signed in as it', async () => {
    const email = 'verified-invitee@example.com';
    const owner = await signUpVerified(t.app, email);
    const before = await userRow(email);
    const { token, companyId } = await invite(email, 'admin');
    expect((await post('/companies/users/check-invited', { token })).json().payload.existingUser).toBe(true);

    const other = await signUpVerified(t.app, 'someone-else@example.com');
    // A stranger holding the link (or the mailbox) cannot set the account's password through it.
    const counts = await tableCounts(t.app);
    const stranger = await post('/companies/users/invited', { token, firstName: 'Mal', lastName: 'Lory', designation: 'dev', password: 'Stranger#Pass1' });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.json().code).toBe('INVITATION_SIGN_IN_REQUIRED');
    // Signed in as somebody else does not count either.
    expect((await post('/companies/users/invited', { token }, other.cookie)).json().code).toBe('INVITATION_SIGN_IN_REQUIRED');
    expect(await tableCounts(t.app)).toEqual(counts);
    expect(await userRow(email)).toEqual(before);
    expect(await membership(companyId, email)).toBeNull();

    // The owner, signed in, joins with the token alone; the link then works no more.
    expect((await post('/companies/users/invited', { token }, owner.cookie)).statusCode).toBe(201);
    expect(await membership(companyId, email)).toBe('admin');
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await post('/companies/users/invited', { token }, owner.cookie)).json().code).toBe('INVITATION_INVALID');
  });
});

describe('2. Google sign-in with an address someone pre-registered', () => {
  it('takes the unverified account over: the registrant loses password, sessions and second factor', async () => {
    const email = 'gina.victim@example.com';
    const attacker = await signUp(t.app, email, 'Attacker-Pass1');
    await legacyTwoFactor(attacker.cookie, email);
    const res = await post('/auth/google-signin', { idToken: await signGoogleToken(keys.privateJwk, { email }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ email, via: 'google', hasPassword: false, mfaEnabled: false, emailVerified: true });
    expect((await me(attacker.cookie)).statusCode).toBe(401);
    expect((await post('/auth/signin', { email, password: 'Attacker-Pass1' })).statusCode).toBe(401);
    expect((await me(sessionCookie(res))).statusCode).toBe(200);
  });

  it('refuses a Google token whose address Google has not verified, changing nothing', async () => {
    const email = 'unverified-at-google@example.com';
    await signUp(t.app, email, 'Registrant-Pass1');
    const before = await userRow(email);
    const counts = await tableCounts(t.app);
    for (const url of ['/auth/google-signin', '/auth/google-signup']) {
      const res = await post(url, { idToken: await signGoogleToken(keys.privateJwk, { email, email_verified: false }), acceptTerms: true, acceptPrivacy: true });
      expect(res.statusCode).toBe(401);
      expect(res.cookies).toEqual([]);
    }
    expect(await userRow(email)).toEqual(before);
    expect(await tableCounts(t.app)).toEqual(counts);
  });
});

describe('3. guessing second-factor codes', () => {
  it('counts wrong codes like wrong passwords: the guessing source gets locked, the owner elsewhere does not', async () => {
    const email = 'totp-target@example.com';
    const owner = await signUpVerified(t.app, email);
    const { secret } = await enableTwoFactor(owner.cookie);
    const guesses: string[] = [];
    for (let i = 0; i < 5; i += 1) guesses.push((await post('/auth/signin', { email, password: GOOD_PASSWORD, authCode: String(100000 + i) }, undefined, '203.0.113.50')).json().code);
    expect(guesses).toEqual(Array(5).fill('TWO_FACTOR_FAILED'));
    // Locked now, even with a right code: the guesser learns nothing more from this source.
    const locked = await post('/auth/signin', { email, password: GOOD_PASSWORD, authCode: totpNow(secret) }, undefined, '203.0.113.50');
    expect(locked.statusCode).toBe(423);
    expect(locked.cookies).toEqual([]);
    // The owner, on another network, signs in.
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD, authCode: totpNow(secret, 1) }, undefined, '198.51.100.77')).statusCode).toBe(200);
  });

  it('limits code checks per account across every source and sign-in path', async () => {
    const email = 'totp-spray@example.com';
    const owner = await signUpVerified(t.app, email);
    const { secret } = await enableTwoFactor(owner.cookie);
    const statuses: number[] = [];
    // One wrong code from each of many addresses, through Google sign-in: no source reaches its own
    // lockout, and the password path's budget is untouched.
    for (let i = 0; i < 10; i += 1) statuses.push((await post('/auth/google-signin', { idToken: await signGoogleToken(keys.privateJwk, { email }), authCode: '000000' }, undefined, `192.0.2.${i + 1}`)).statusCode);
    expect(statuses).toEqual(Array(10).fill(401));
    // The right code is not even checked now, on any path.
    const right = await post('/auth/signin', { email, password: GOOD_PASSWORD, authCode: totpNow(secret) }, undefined, '192.0.2.101');
    expect(right.statusCode).toBe(429);
    expect(right.cookies).toEqual([]);
    const google = await post('/auth/google-signin', { idToken: await signGoogleToken(keys.privateJwk, { email }), authCode: totpNow(secret) }, undefined, '192.0.2.100');
    expect(google.statusCode).toBe(429);
  });

  it('accepts each Google ID token once', async () => {
    const email = 'replay@example.com';
    const idToken = await signGoogleToken(keys.privateJwk, { email });
    const first = await post('/auth/google-signup', { idToken, acceptTerms: true, acceptPrivacy: true });
    expect(first.statusCode).toBe(201);
    const counts = await tableCounts(t.app);
    for (const url of ['/auth/google-signin', '/auth/google-signup']) {
      const replay = await post(url, { idToken, acceptTerms: true, acceptPrivacy: true });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('GOOGLE_TOKEN_USED');
      expect(replay.cookies).toEqual([]);
    }
    expect(await tableCounts(t.app)).toEqual(counts);
  });
});

describe('4. sensitive changes need a fresh proof, not only a session cookie', () => {
  const stale = (cookie: string) => t.app.database.rows(`update sessions set proved_at = now() - interval '1 hour' where token_hash = '${createHash('sha256').update(cookie.split('=')[1] ?? '').digest('hex')}'`);

  it('refuses two-factor set-up on a stale session until the password is given again', async () => {
    const owner = await signUpVerified(t.app, 'stale-2fa@example.com');
    await stale(owner.cookie);
    const refused = await post('/auth/2fa/initiate', {}, owner.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('REAUTH_REQUIRED');
    expect((await post('/auth/2fa/enable', { code: '123456' }, owner.cookie)).json().code).toBe('REAUTH_REQUIRED');
    expect((await t.app.database.rows<{ p: string | null }>("select totp_pending_secret as p from users where email = 'stale-2fa@example.com'"))[0]?.p).toBeNull();

    const wrong = await post('/auth/reauthenticate', { password: 'Not-the-one1' }, owner.cookie);
    expect(wrong.statusCode).toBe(400);
    expect((await post('/auth/2fa/initiate', {}, owner.cookie)).statusCode).toBe(403);
    expect((await post('/auth/reauthenticate', { password: GOOD_PASSWORD }, owner.cookie)).statusCode).toBe(200);
    expect((await post('/auth/2fa/initiate', {}, owner.cookie)).statusCode).toBe(200);
  });

  it('refuses a first password or account deletion for a Google account on a stale session', async () => {
    const res = await post('/auth/google-signup', { idToken: await signGoogleToken(keys.privateJwk, { email: 'stale-google@example.com' }), acceptTerms: true, acceptPrivacy: true });
    const cookie = sessionCookie(res);
    await stale(cookie);
    const counts = await tableCounts(t.app);
    expect((await post('/auth/set-password', { password: 'Brand#New1pass' }, cookie)).json().code).toBe('REAUTH_REQUIRED');
    expect((await call('DELETE', '/auth/me', {}, cookie)).json().code).toBe('REAUTH_REQUIRED');
    expect(await tableCounts(t.app)).toEqual(counts);
    expect((await userRow('stale-google@example.com'))?.password_hash).toBeNull();
  });
});

describe('5. nobody learns which addresses have accounts', () => {
  it('answers sign-up alike for a new and a taken address, signing in neither', async () => {
    await signUp(t.app, 'taken@example.com');
    const body = (email: string) => ({ firstName: 'Eve', lastName: 'Prober', email, password: 'Probe#Pass123' });
    const taken = await post('/users', body('taken@example.com'));
    const fresh = await post('/users', body('fresh-probe@example.com'));
    expect([taken.statusCode, fresh.statusCode]).toEqual([201, 201]);
    expect(taken.cookies).toEqual([]);
    expect(fresh.cookies).toEqual([]);
    expect(Object.keys(taken.json().payload)).toEqual(Object.keys(fresh.json().payload));
    // The registrant's password is untouched by the second sign-up.
    expect((await post('/auth/signin', { email: 'taken@example.com', password: 'Probe#Pass123' })).statusCode).toBe(401);
    expect((await post('/auth/signin', { email: 'taken@example.com', password: GOOD_PASSWORD })).statusCode).toBe(200);
  });

  it("says 'locked' only to someone who gives the right password", async () => {
    const email = 'lock-probe@example.com';
    await signUp(t.app, email);
    const codes: string[] = [];
    for (let i = 0; i < 7; i += 1) codes.push((await post('/auth/signin', { email, password: `Wrong-pass${i}` }, undefined, '203.0.113.9')).json().code);
    expect(codes).toEqual(Array(7).fill('INVALID_CREDENTIALS'));
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '203.0.113.9')).statusCode).toBe(423);
  });
});

describe('6. nobody can keep the owner out', () => {
  it('locks the guessing address only; the owner signs in from elsewhere and from their own device', async () => {
    const email = 'keep-out@example.com';
    await signUpVerified(t.app, email);
    // The owner signed in once on their laptop: it carries a device cookie.
    const laptop = await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '198.51.100.1');
    const device = laptop.cookies.find((c) => c.name.endsWith('beacon_device'));
    expect(device).toMatchObject({ httpOnly: true, path: '/api/v1/auth' });
    for (let i = 0; i < 5; i += 1) await post('/auth/signin', { email, password: 'Wrong-pass1' }, undefined, '203.0.113.66');
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '203.0.113.66')).statusCode).toBe(423);
    // Another network: fine. The laptop, even behind the guesser's address: fine.
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '198.51.100.2')).statusCode).toBe(200);
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, `${device?.name}=${device?.value}`, '203.0.113.66')).statusCode).toBe(200);
  });

  it('keeps a budget per action: reset mails do not use up sign-ins, and the owner’s device passes a flooded account limit', async () => {
    const email = 'flooded@example.com';
    await signUpVerified(t.app, email);
    const laptop = await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '198.51.100.3');
    const deviceCookie = cookiesOf(laptop)
      .split('; ')
      .filter((c) => c.includes('beacon_device'))
      .join('; ');
    for (let i = 0; i < 10; i += 1) expect((await post('/auth/forgot-password', { email }, undefined, `192.0.2.${50 + i}`)).statusCode).toBe(200);
    expect((await post('/auth/forgot-password', { email }, undefined, '192.0.2.70')).statusCode).toBe(429);
    // Resets used their own budget: sign-in still has all of its own.
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '198.51.100.4')).statusCode).toBe(200);
    // A spray from many addresses uses up the account's budget for devices it does not know...
    for (let i = 0; i < 10; i += 1) await post('/auth/signin', { email, password: 'Wrong-pass1' }, undefined, `192.0.2.${100 + i}`);
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, '198.51.100.5')).statusCode).toBe(429);
    // ...but not for the owner's own device, and the mailed magic link always lets them in.
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, deviceCookie, '198.51.100.5')).statusCode).toBe(200);
    const sent = new Date();
    expect((await post('/auth/magic-link', { email }, undefined, '198.51.100.6')).statusCode).toBe(200);
    const magic = await waitForMail(t.app, email, 'sign-in link', sent);
    expect((await post('/auth/signin/magic-link', { token: tokenOf(magic.link) }, undefined, '198.51.100.6')).statusCode).toBe(200);
  });

  it('the unlock mail releases every locked source', async () => {
    const email = 'unlock-all@example.com';
    await signUpVerified(t.app, email);
    for (const ip of ['203.0.113.101', '203.0.113.102']) for (let i = 0; i < 5; i += 1) await post('/auth/signin', { email, password: 'Wrong-pass1' }, undefined, ip);
    const sent = new Date();
    await post('/auth/request-unlock', { email }, undefined, '198.51.100.9');
    const { link } = await waitForMail(t.app, email, 'Unlock', sent);
    expect((await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search })).statusCode).toBe(303);
    for (const ip of ['203.0.113.101', '203.0.113.102']) expect((await post('/auth/signin', { email, password: GOOD_PASSWORD }, undefined, ip)).statusCode).toBe(200);
  });
});

describe('12. the verification link and a second factor', () => {
  it('verifies the address of a two-factor account but does not sign in without the code', async () => {
    const email = 'verify-2fa@example.com';
    const registrant = await signUp(t.app, email);
    const secret = await legacyTwoFactor(registrant.cookie, email);
    const res = await post('/auth/verify', { token: tokenOf(registrant.verifyLink) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toBeNull();
    expect(res.cookies).toEqual([]);
    expect((await userRow(email))?.email_verified_at).not.toBeNull();
    // Sign-in still wants the code.
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD })).json().code).toBe('TWO_FACTOR_REQUIRED');
    expect((await post('/auth/signin', { email, password: GOOD_PASSWORD, authCode: totpNow(secret) })).statusCode).toBe(200);
  });
});

describe('13. second-factor secrets at rest', () => {
  it('stores the authenticator secret encrypted and recovery codes as keyed hashes; a rotated key still reads them', async () => {
    const email = 'at-rest@example.com';
    const owner = await signUpVerified(t.app, email);
    const { secret, recoveryCodes } = await enableTwoFactor(owner.cookie);
    const row = await userRow(email);
    expect(row?.totp_secret).toMatch(/^v1\.k1\./);
    expect(row?.totp_secret).not.toContain(secret);
    const hashes = (await t.app.database.rows<{ code_hash: string }>(`select code_hash from recovery_codes where user_id = '${row?.id}'`)).map((r) => r.code_hash);
    const plainSha = recoveryCodes.map((c) => createHash('sha256').update(c).digest('hex'));
    expect(hashes.some((h) => plainSha.includes(h) || recoveryCodes.some((c) => h.includes(c)))).toBe(false);

    // Rotation: a new key in front, the old one kept; the next use seals the secret under the new key.
    const rotated = await buildApp({ ...t.config, SECRET_KEYS: `k2:${randomBytes(32).toString('base64')},${SECRET_KEYS}` }, { database: t.app.database, logger: false });
    try {
      const signIn = await rotated.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password: GOOD_PASSWORD, authCode: totpNow(secret) } });
      expect(signIn.statusCode).toBe(200);
      expect((await userRow(email))?.totp_secret).toMatch(/^v1\.k2\./);
      const recovery = await rotated.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password: GOOD_PASSWORD, authCode: recoveryCodes[0] } });
      expect(recovery.statusCode).toBe(200);
    } finally {
      await rotated.close();
    }
    // Without the key the database alone opens nothing: another keyring cannot use the secret.
    const stranger = await buildApp({ ...t.config, SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}` }, { database: t.app.database, logger: false });
    try {
      const res = await stranger.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password: GOOD_PASSWORD, authCode: recoveryCodes[1] } });
      expect(res.statusCode).not.toBe(200);
    } finally {
      await stranger.close();
    }
  });
});

describe('15. long passwords and passphrases', () => {
  it.each([
    ['64 characters', `Ab1#${'long-pass'.repeat(6)}xxxxxx`],
    ['128 characters', `Ab1#${'z'.repeat(124)}`],
    ['a passphrase of plain words', 'correct horse battery staple'],
  ])('accepts %s at sign-up and sign-in', async (_name, password) => {
    const email = `pass-${password.length}-${password.charCodeAt(4)}@example.com`;
    expect((await post('/users', { firstName: 'Long', lastName: 'Phrase', email, password })).statusCode).toBe(201);
    await waitForMail(t.app, email, 'Verify');
    expect((await post('/auth/signin', { email, password })).statusCode).toBe(200);
  });
});

describe('20. guessing discount codes', () => {
  let order: Body;
  beforeAll(async () => {
    const plans = (await call('GET', '/plans/public')).json().payload as { _id: string; code: string }[];
    const conf = (await call('GET', '/plans/configurables/public/gcp')).json().payload as { regions: { _id: string; code: string }[] };
    const plan = plans.find((p) => p.code === 'v3.mau_1_000_gcp.base');
    const region = conf.regions.find((r) => r.code === 'us-central1');
    order = { plan: plan?._id, planConfig: { region: region?._id, features: [] }, payment: { term: { cycle: 'month' } } };
    await t.app.database.rows("insert into discount_codes (code, kind, value) values ('REALCODE', 'percent', 10)");
  });

  it('limits wrong codes per source: past the limit even a real code is not checked', async () => {
    const ip = '203.0.113.200';
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await post('/deployments/pricing', { ...order, discountCode: `GUESS${i}` }, undefined, ip)).statusCode);
    expect(statuses).toEqual(Array(20).fill(400));
    const real = await post('/deployments/pricing', { ...order, discountCode: 'REALCODE' }, undefined, ip);
    expect(real.statusCode).toBe(429);
    expect(real.json().code).toBe('RATE_LIMITED');
    // Another source is not affected, and a real code is never counted.
    for (let i = 0; i < 25; i += 1) expect((await post('/deployments/pricing', { ...order, discountCode: 'REALCODE' }, undefined, '203.0.113.201')).statusCode).toBe(200);
  });

  it('limits a signed-in user across sources', async () => {
    const { cookie } = await signUpVerified(t.app, 'code-guesser@example.com');
    for (let i = 0; i < 20; i += 1) await post('/deployments/pricing', { ...order, discountCode: `TRY${i}` }, cookie, `198.51.100.${100 + i}`);
    expect((await post('/deployments/pricing', { ...order, discountCode: 'REALCODE' }, cookie, '198.51.100.150')).statusCode).toBe(429);
  });
});
