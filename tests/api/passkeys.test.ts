import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified as signUp } from '../support/accounts';
import { GOOD_PASSWORD, sessionCookie, waitForMail } from '../support/auth';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { totpNow } from '../support/totp';
import { SoftAuthenticator } from '../support/webauthn';

const ORIGIN = 'https://beacon.example.com';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
// The cross-site guard wants the site's own origin on changes, as a browser sends it.
const api = (method: Method, url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });

let n = 0;
const newEmail = (tag: string) => `${tag}-${(n += 1)}@example.com`;

async function registrationOptions(cookie: string) {
  const res = await api('POST', '/auth/passkeys/options', cookie);
  expect(res.statusCode).toBe(200);
  return res.json().payload as { challenge: string; rp: { id: string; name: string }; authenticatorSelection: Record<string, string> };
}

async function signInOptions() {
  const res = await api('POST', '/auth/passkeys/signin/options');
  expect(res.statusCode).toBe(200);
  return res.json().payload as { challenge: string; rpId: string; userVerification: string };
}

/** A signed-up, signed-in account with one registered passkey. */
async function accountWithPasskey(tag: string) {
  const email = newEmail(tag);
  const { cookie } = await signUp(t.app, email);
  const key = new SoftAuthenticator(ORIGIN);
  const res = await api('POST', '/auth/passkeys', cookie, { name: 'Laptop', response: key.register(await registrationOptions(cookie)) });
  expect(res.statusCode).toBe(201);
  return { email, cookie, key, passkeyId: res.json().payload._id as string };
}

const passkeyRows = () => t.app.database.rows<{ id: string; counter: number; last_used_at: string | null }>('select id, counter::int as counter, last_used_at from passkeys order by id');

/** Runs a request that must be refused with `code`, and checks that no row of any table changed. */
async function refusedUnchanged(code: string, send: () => Promise<{ statusCode: number; json: () => { code: string; message: string } }>) {
  const before = { counts: await tableCounts(t.app), rows: await passkeyRows() };
  const res = await send();
  expect(res.json().code).toBe(code);
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.json().message).not.toBe(`errors.${code}`);
  expect({ counts: await tableCounts(t.app), rows: await passkeyRows() }).toEqual(before);
}

describe('passkey registration', () => {
  it('asks for a discoverable, user-verified passkey for PUBLIC_URL’s RP ID, then lists, audits and mails it', async () => {
    const email = newEmail('reg');
    const { cookie } = await signUp(t.app, email);
    const options = await registrationOptions(cookie);
    expect(options.rp).toEqual({ id: 'beacon.example.com', name: 'Beacon' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });

    const started = new Date();
    const key = new SoftAuthenticator(ORIGIN);
    const res = await api('POST', '/auth/passkeys', cookie, { name: 'YubiKey 5', response: key.register(options) });
    expect(res.statusCode).toBe(201);
    expect(res.json().payload).toMatchObject({ name: 'YubiKey 5', lastUsedAt: null, transports: ['internal'] });

    const list = (await api('GET', '/auth/passkeys', cookie)).json().payload;
    expect(list).toHaveLength(1);
    expect(list[0].name).toBe('YubiKey 5');
    const audit = await t.app.database.rows<{ action: string; after: { name: string } }>(
      `select action, "after" from audit_logs where action = 'user.passkeyAdd' and actor_email = '${email}'`,
    );
    expect(audit).toEqual([{ action: 'user.passkeyAdd', after: expect.objectContaining({ name: 'YubiKey 5' }) }]);
    const mail = await waitForMail(t.app, email, 'A passkey was added', started);
    expect(mail.text).toContain('“YubiKey 5”');
    expect(mail.link).toBe(`${ORIGIN}/#/profile/authentication`);
  });

  it('refuses a bad origin, a wrong RP ID, a missing user verification and a replayed challenge, changing nothing', async () => {
    const { cookie } = await signUp(t.app, newEmail('regbad'));
    const key = new SoftAuthenticator(ORIGIN);
    const options = await registrationOptions(cookie);
    const register = (response: unknown) => () => api('POST', '/auth/passkeys', cookie, { name: 'Phone', response });

    await refusedUnchanged('PASSKEY_INVALID', register(key.register(options, { origin: 'https://evil.example.com' })));
    await refusedUnchanged('PASSKEY_INVALID', register(key.register(options, { rpId: 'evil.example.com' })));
    await refusedUnchanged('PASSKEY_INVALID', register(key.register(options, { userVerified: false })));
    await refusedUnchanged('PASSKEY_CHALLENGE_INVALID', register(key.register({ ...options, challenge: 'bm90LWEtY2hhbGxlbmdlLW9mLW91cnM' })));

    // The refusals left the challenge usable; once used, the same answer is a replay.
    const good = key.register(options);
    expect((await register(good)()).statusCode).toBe(201);
    await refusedUnchanged('PASSKEY_CHALLENGE_INVALID', register(good));
  });

  it('refuses another user’s challenge and an authenticator registered already', async () => {
    const other = await signUp(t.app, newEmail('regother'));
    const { cookie, key } = await accountWithPasskey('regdup');
    const othersOptions = await registrationOptions(other.cookie);
    const stranger = new SoftAuthenticator(ORIGIN);
    await refusedUnchanged('PASSKEY_CHALLENGE_INVALID', () => api('POST', '/auth/passkeys', cookie, { name: 'X', response: stranger.register(othersOptions) }));
    // The same authenticator again, to the other account: the credential id is taken.
    await refusedUnchanged('PASSKEY_INVALID', () => api('POST', '/auth/passkeys', other.cookie, { name: 'X', response: key.register(othersOptions) }));
  });

  it('needs a fresh proof of identity to register or remove', async () => {
    const { cookie, passkeyId } = await accountWithPasskey('stale');
    await t.app.database.rows(`update sessions set proved_at = now() - interval '1 hour'`);
    await refusedUnchanged('REAUTH_REQUIRED', () => api('POST', '/auth/passkeys/options', cookie));
    await refusedUnchanged('REAUTH_REQUIRED', () => api('DELETE', `/auth/passkeys/${passkeyId}`, cookie));
    expect((await api('POST', '/auth/reauthenticate', cookie, { password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await api('POST', '/auth/passkeys/options', cookie)).statusCode).toBe(200);
  });
});

describe('passkey sign-in', () => {
  it('signs in with the passkey alone: a session, the counter and last use recorded, audited and mailed', async () => {
    const { email, key } = await accountWithPasskey('alone');
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'beacon.example.com', userVerification: 'required' });
    expect(options).not.toHaveProperty('allowCredentials');

    const started = new Date();
    const res = await api('POST', '/auth/passkeys/signin', undefined, { response: key.assert(options) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.email).toBe(email);
    const me = await api('GET', '/auth/me', sessionCookie(res));
    expect(me.json().payload.email).toBe(email);
    const [row] = await t.app.database.rows<{ counter: number; last_used_at: string | null }>(
      `select p.counter::int as counter, p.last_used_at from passkeys p join users u on u.id = p.user_id where u.email = '${email}'`,
    );
    expect(row).toMatchObject({ counter: 1, last_used_at: expect.anything() });
    const actions = await t.app.database.rows<{ action: string }>(`select action from audit_logs where actor_email = '${email}' order by at`);
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['user.passkeyUse', 'user.signIn']));
    await waitForMail(t.app, email, 'signed in to with a passkey', started);
  });

  it('refuses a bad origin, a wrong RP ID, no user verification, a replay, a counter going back and an unknown passkey, changing nothing', async () => {
    const { key } = await accountWithPasskey('signbad');
    const signIn = (response: unknown) => () => api('POST', '/auth/passkeys/signin', undefined, { response });
    const options = await signInOptions();

    await refusedUnchanged('PASSKEY_INVALID', signIn(key.assert(options, { origin: 'https://beacon.example.com.evil.example' })));
    await refusedUnchanged('PASSKEY_INVALID', signIn(key.assert(options, { rpId: 'example.com' })));
    await refusedUnchanged('PASSKEY_INVALID', signIn(key.assert(options, { userVerified: false })));
    await refusedUnchanged('PASSKEY_UNKNOWN', signIn(new SoftAuthenticator(ORIGIN).assert(options)));

    const good = key.assert(options, { counter: 10 });
    expect((await signIn(good)()).statusCode).toBe(200);
    await refusedUnchanged('PASSKEY_CHALLENGE_INVALID', signIn(good));
    // A clone of the authenticator, behind the original's counter (and one standing still).
    await refusedUnchanged('PASSKEY_COUNTER', signIn(key.assert(await signInOptions(), { counter: 5 })));
    await refusedUnchanged('PASSKEY_COUNTER', signIn(key.assert(await signInOptions(), { counter: 10 })));
    expect((await signIn(key.assert(await signInOptions(), { counter: 11 }))()).statusCode).toBe(200);
  });

  it('stands in for the code of an account with two-factor sign-in; another user’s passkey does not', async () => {
    const { email, cookie, key } = await accountWithPasskey('mfa');
    const setup = (await api('POST', '/auth/2fa/initiate', cookie)).json().payload;
    expect((await api('POST', '/auth/2fa/enable', cookie, { code: totpNow(setup.secret) })).statusCode).toBe(200);
    const creds = { email, password: GOOD_PASSWORD };
    expect((await api('POST', '/auth/signin', undefined, creds)).json().code).toBe('TWO_FACTOR_REQUIRED');

    const stranger = await accountWithPasskey('mfastranger');
    const strangers = stranger.key.assert(await signInOptions());
    await refusedUnchanged('PASSKEY_UNKNOWN', () => api('POST', '/auth/signin', undefined, { ...creds, passkey: strangers }));
    const res = await api('POST', '/auth/signin', undefined, { ...creds, passkey: key.assert(await signInOptions()) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.email).toBe(email);
    // And the passkey alone still signs in, the second factor included.
    expect((await api('POST', '/auth/passkeys/signin', undefined, { response: key.assert(await signInOptions()) })).statusCode).toBe(200);
  });
});

describe('removing passkeys', () => {
  it('removes one of the user’s own, audited and mailed; another user’s answers as missing', async () => {
    const owner = await accountWithPasskey('rm');
    const other = await accountWithPasskey('rmother');
    await refusedUnchanged('PASSKEY_NOT_FOUND', () => api('DELETE', `/auth/passkeys/${owner.passkeyId}`, other.cookie));
    await refusedUnchanged('UNAUTHORIZED', () => api('DELETE', `/auth/passkeys/${owner.passkeyId}`));

    const started = new Date();
    expect((await api('DELETE', `/auth/passkeys/${owner.passkeyId}`, owner.cookie)).statusCode).toBe(200);
    expect((await api('GET', '/auth/passkeys', owner.cookie)).json().payload).toEqual([]);
    await waitForMail(t.app, owner.email, 'A passkey was removed', started);
    const [audit] = await t.app.database.rows<{ n: number }>(`select count(*)::int as n from audit_logs where action = 'user.passkeyRemove' and actor_email = '${owner.email}'`);
    expect(audit?.n).toBe(1);
    // The removed passkey no longer signs in.
    const removed = owner.key.assert(await signInOptions());
    await refusedUnchanged('PASSKEY_UNKNOWN', () => api('POST', '/auth/passkeys/signin', undefined, { response: removed }));
  });

  it('refuses to remove the last way to sign in', async () => {
    const { email, cookie, passkeyId } = await accountWithPasskey('last');
    // An account made with Google that never set a password, on an installation without Google sign-in.
    await t.app.database.rows(`update users set password_hash = null, via = 'google' where email = '${email}'`);
    await refusedUnchanged('PASSKEY_LAST_SIGN_IN', () => api('DELETE', `/auth/passkeys/${passkeyId}`, cookie));

    const second = new SoftAuthenticator(ORIGIN);
    expect((await api('POST', '/auth/passkeys', cookie, { name: 'Phone', response: second.register(await registrationOptions(cookie)) })).statusCode).toBe(201);
    expect((await api('DELETE', `/auth/passkeys/${passkeyId}`, cookie)).statusCode).toBe(200);
    const [remaining] = (await api('GET', '/auth/passkeys', cookie)).json().payload;
    await refusedUnchanged('PASSKEY_LAST_SIGN_IN', () => api('DELETE', `/auth/passkeys/${remaining._id}`, cookie));
  });
});

describe('recovery', () => {
  it('a password reset still works for an account with passkeys, and its passkeys keep working', async () => {
    const { email, key } = await accountWithPasskey('reset');
    const started = new Date();
    expect((await api('POST', '/auth/forgot-password', undefined, { email })).statusCode).toBe(200);
    const mail = await waitForMail(t.app, email, 'Reset', started);
    const token = new URL(mail.link.replace('/#/', '/')).searchParams.get('token') ?? '';
    expect((await api('POST', '/auth/reset-password', undefined, { token, password: 'Brass-Gear-42' })).statusCode).toBe(200);
    expect((await api('POST', '/auth/signin', undefined, { email, password: 'Brass-Gear-42' })).statusCode).toBe(200);
    expect((await api('POST', '/auth/passkeys/signin', undefined, { response: key.assert(await signInOptions()) })).statusCode).toBe(200);
  });
});
