import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie } from '../support/admin';
import { signUpVerified } from '../support/accounts';
import { sessionCookie, signUp, tokenOf, waitForMail } from '../support/auth';
import { loadCatalogue, orderBody, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { SoftAuthenticator } from '../support/webauthn';

/**
 * An account nobody verified may be somebody else's registration: it reaches the verify screen
 * and nothing else, holds no passkey, and whoever proves the mailbox (a reset, an invitation)
 * claims it whole, passkeys included. An administrator's lock is no mailbox's to lift.
 */
const ORIGIN = 'https://beacon.example.com';
let t: TestApp;
let admin: string;
let cat: Catalogue;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  admin = await adminCookie(t.app);
  cat = await loadCatalogue(t.app);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = (method: Method, url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });

let n = 0;
const newEmail = (tag: string) => `${tag}-${(n += 1)}@example.com`;
const userId = async (email: string) => (await t.app.database.rows<{ id: string }>(`select id from users where email = '${email}'`))[0]?.id ?? '';
const count = async (from: string) => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from ${from}`))[0]?.n ?? -1;
const mailsTo = (email: string) => count(`mail_outbox where "to" = '${email}'`);

/**
 * A passkey on an unverified account, written as a registration before passkeys needed a proved
 * address stored it, with a registration challenge still pending: what an attacker could hold.
 */
async function plantPasskey(email: string): Promise<SoftAuthenticator> {
  const key = new SoftAuthenticator(ORIGIN);
  const id = await userId(email);
  await t.app.database.rows(
    `insert into passkeys (user_id, credential_id, public_key, counter, transports, name)
     values ('${id}', '${key.id}', decode('${key.coseKey().toString('hex')}', 'hex'), 0, '{internal}', 'Attacker key')`,
  );
  await t.app.database.rows(
    `insert into passkey_challenges (challenge_hash, purpose, user_id, expires_at) values ('${randomBytes(32).toString('hex')}', 'register', '${id}', now() + interval '5 minutes')`,
  );
  return key;
}

/** Signs in with the passkey alone, as "Sign in with a passkey" does. */
async function passkeySignIn(key: SoftAuthenticator) {
  const options = (await api('POST', '/auth/passkeys/signin/options')).json().payload as { challenge: string; rpId: string };
  return api('POST', '/auth/passkeys/signin', undefined, { response: key.assert(options) });
}

describe('an account nobody verified', () => {
  it('registers no passkey: options and registration answer 403 and nothing is written', async () => {
    const email = newEmail('unverified-passkey');
    const { cookie } = await signUp(t.app, email);
    const before = await tableCounts(t.app);
    const options = await api('POST', '/auth/passkeys/options', cookie);
    expect(options.statusCode).toBe(403);
    expect(options.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: 'Verify your email address first: open the link we mailed you, or send a new one.' });
    const key = new SoftAuthenticator(ORIGIN);
    const register = await api('POST', '/auth/passkeys', cookie, { name: 'Laptop', response: key.register({ challenge: 'x'.repeat(43), rp: { id: 'beacon.example.com' } }) });
    expect(register.json().code).toBe('EMAIL_NOT_VERIFIED');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('reaches the verify screen and nothing else: no company, order, second factor, profile change or invitation', async () => {
    const email = newEmail('unverified-scope');
    const { cookie } = await signUp(t.app, email);
    const meRes = await api('GET', '/auth/me', cookie);
    expect(meRes.statusCode).toBe(200);
    expect(meRes.json().payload).toMatchObject({ emailVerified: false, onboarding: 'verify' });

    const before = await tableCounts(t.app);
    const mailsBefore = await mailsTo(email);
    const refused: [Method, string, Record<string, unknown>?][] = [
      ['POST', '/companies?onboarding=1', { name: 'Squatter Ltd' }],
      ['POST', '/auth/2fa/initiate', {}],
      ['POST', '/auth/set-password', { password: 'Another#Pass99' }],
      ['PUT', `/users/${await userId(email)}`, { firstName: 'Eve' }],
      ['GET', '/deployments'],
      ['POST', '/deployments', orderBody(cat, { companyId: '00000000-0000-4000-8000-000000000000', projectId: '00000000-0000-4000-8000-000000000000' })],
    ];
    for (const [method, url, payload] of refused) {
      const res = await api(method, url, cookie, payload);
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({ url, status: 403, code: 'EMAIL_NOT_VERIFIED' });
    }
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await mailsTo(email)).toBe(mailsBefore);

    // Asking for the mail again is what the verify screen offers (held back for two minutes after the last).
    expect((await api('POST', '/auth/verify/issue', cookie, {})).json().code).toBe('VERIFICATION_ALREADY_SENT');
  });

  it('signs nobody in with a passkey kept from before the rule', async () => {
    const email = newEmail('legacy-passkey');
    await signUp(t.app, email);
    const key = await plantPasskey(email);
    const before = await tableCounts(t.app);
    const res = await passkeySignIn(key);
    expect(res.json().code).toBe('PASSKEY_UNKNOWN');
    expect(res.cookies).toHaveLength(0);
    // The sign-in options' challenge is the only row the attempt wrote.
    expect({ ...(await tableCounts(t.app)), passkey_challenges: before.passkey_challenges }).toEqual(before);
  });
});

describe('the owner claims a pre-registered address', () => {
  it('by a password reset: every passkey and pending challenge of the registrant goes, and theirs signs nobody in', async () => {
    const email = newEmail('reset-victim');
    const attacker = await signUp(t.app, email, 'Attacker-Pass1');
    const key = await plantPasskey(email);
    const id = await userId(email);

    const asked = new Date();
    expect((await api('POST', '/auth/forgot-password', undefined, { email })).statusCode).toBe(200);
    const mail = await waitForMail(t.app, email, 'password', asked);
    expect((await api('POST', '/auth/reset-password', undefined, { token: tokenOf(mail.link), password: 'Owner#Pass-2026' })).statusCode).toBe(200);

    expect(await count(`passkeys where user_id = '${id}'`)).toBe(0);
    expect(await count(`passkey_challenges where user_id = '${id}'`)).toBe(0);
    expect((await api('GET', '/auth/me', attacker.cookie)).statusCode).toBe(401);
    const before = await count('sessions');
    expect((await passkeySignIn(key)).json().code).toBe('PASSKEY_UNKNOWN');
    expect(await count('sessions')).toBe(before);
    const owner = await api('POST', '/auth/signin', undefined, { email, password: 'Owner#Pass-2026' });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().payload).toMatchObject({ emailVerified: true });
  });

  it('by accepting an invitation: the registrant’s passkey does not make them the company’s admin', async () => {
    const email = newEmail('invite-victim');
    await signUp(t.app, email, 'Attacker-Pass1');
    const key = await plantPasskey(email);
    const id = await userId(email);

    const { cookie: ownerCookie } = await signUpVerified(t.app, newEmail('inviter'));
    const company = (await api('POST', '/companies?onboarding=1', ownerCookie, { name: 'Analytical Engines' })).json().payload as { _id: string };
    const sent = new Date();
    expect((await api('POST', `/companies/${company._id}/invitations`, ownerCookie, { email, role: 'admin' })).statusCode).toBeLessThan(300);
    const invitation = await waitForMail(t.app, email, 'invited', sent);
    const accepted = await api('POST', '/companies/users/invited', undefined, {
      token: tokenOf(invitation.link),
      firstName: 'Real',
      lastName: 'Owner',
      designation: 'dev',
      password: 'Owner#Pass-2026',
    });
    expect(accepted.statusCode).toBe(201);

    expect(await count(`passkeys where user_id = '${id}'`)).toBe(0);
    expect(await count(`passkey_challenges where user_id = '${id}'`)).toBe(0);
    const attempt = await passkeySignIn(key);
    expect(attempt.json().code).toBe('PASSKEY_UNKNOWN');
    expect(attempt.cookies).toHaveLength(0);
    // The real owner is the company's admin, and only with their own password.
    const owner = await api('POST', '/auth/signin', undefined, { email, password: 'Owner#Pass-2026' });
    expect(owner.statusCode).toBe(200);
    const members = await api('GET', `/companies/${company._id}/users`, sessionCookie(owner));
    expect(members.statusCode).toBe(200);
  });
});

describe('an administrator’s lock', () => {
  async function lockedAccount(tag: string) {
    const email = newEmail(tag);
    const { cookie } = await signUpVerified(t.app, email);
    const key = new SoftAuthenticator(ORIGIN);
    const options = (await api('POST', '/auth/passkeys/options', cookie)).json().payload as { challenge: string; rp: { id: string } };
    expect((await api('POST', '/auth/passkeys', cookie, { name: 'Laptop', response: key.register(options) })).statusCode).toBe(201);
    const id = await userId(email);
    expect((await api('POST', `/admin/users/${id}/lock`, admin, {})).statusCode).toBe(200);
    return { email, id, key };
  }
  const lockedAt = async (id: string) => (await t.app.database.rows<{ locked_at: Date | null }>(`select locked_at from users where id = '${id}'`))[0]?.locked_at ?? null;

  it('is lifted by no mailbox flow: no unlock mail, and a magic link or a password reset signs nobody in', async () => {
    const { email, id, key } = await lockedAccount('locked');
    const was = await lockedAt(id);
    expect(was).not.toBeNull();

    // The passkey-added mail goes after its answer: wait for it before counting.
    await waitForMail(t.app, email, 'passkey was added');
    const mails = await mailsTo(email);
    expect((await api('POST', '/auth/request-unlock', undefined, { email })).statusCode).toBe(200);

    const asked = new Date();
    await api('POST', '/auth/magic-link', undefined, { email });
    const magic = await waitForMail(t.app, email, 'sign-in link', asked);
    const viaLink = await api('POST', '/auth/signin/magic-link', undefined, { token: tokenOf(magic.link) });
    expect(viaLink.statusCode).toBe(423);
    expect(viaLink.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: 'This account is locked by an administrator. Contact support to open it again.' });
    expect(viaLink.cookies.filter((c) => c.name.includes('session'))).toHaveLength(0);

    const resetAsked = new Date();
    await api('POST', '/auth/forgot-password', undefined, { email });
    const reset = await waitForMail(t.app, email, 'password', resetAsked);
    expect((await api('POST', '/auth/reset-password', undefined, { token: tokenOf(reset.link), password: 'Fresh#Pass-2026' })).statusCode).toBe(200);
    const signIn = await api('POST', '/auth/signin', undefined, { email, password: 'Fresh#Pass-2026' });
    expect(signIn.json().code).toBe('ACCOUNT_SUSPENDED');
    expect((await passkeySignIn(key)).json().code).toBe('ACCOUNT_SUSPENDED');

    expect(await lockedAt(id)).toEqual(was);
    // The magic link and the reset mail went out; neither the unlock mail nor a passkey-use mail did.
    expect(await mailsTo(email)).toBe(mails + 2);
    expect(await count(`sessions where user_id = '${id}'`)).toBe(0);
  });

  it('is lifted by an administrator', async () => {
    const { id, key } = await lockedAccount('unlocked');
    expect((await api('POST', `/admin/users/${id}/unlock`, admin, {})).statusCode).toBe(200);
    expect((await passkeySignIn(key)).statusCode).toBe(200);
  });
});
