import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie, signUp, tokenOf, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { captureLog } from '../support/logCapture';
import { multipart } from '../support/multipart';
import { startSmtpSink } from '../support/smtpSink';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { totpNow } from '../support/totp';

/**
 * Invalid text is refused by validation (never a 500), and the log of a
 * whole run (sign-up, sign-in, mailed tokens, second factor, attacks, a failing query) holds no
 * password, hash, token, code or cookie.
 */

const log = captureLog();
let t: TestApp;
/** Every secret the run hands out; none may show in the log. */
const secrets: string[] = [];
const keep = (...values: string[]) => secrets.push(...values.filter(Boolean));

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' }, { logger: { level: 'trace', stream: log.stream } });
  // A query that fails with a password hash among its parameters, as a NUL used to provoke.
  t.app.get('/test/failing-query', async () => {
    const [row] = await t.app.database.rows<{ hash: string }>('select password_hash as hash from users where password_hash is not null limit 1');
    await t.app.database.db.execute(sql`select ${row?.hash ?? '$argon2id$missing'}::int as broken`);
    return 'unreachable';
  });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, cookie?: string) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload: payload as Record<string, unknown>, headers: cookie ? { cookie } : {} });
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

describe('invalid text (NUL, lone surrogates) in body, query, params or form fields', () => {
  it('is refused with 400 VALIDATION_FAILED naming the field, on every kind of route, changing nothing', async () => {
    const { cookie, res } = await signUpVerified(t.app, 'nul@example.com');
    const userId: string = res.json().payload._id;
    const form = await multipart({ firstName: 'Ev\u0000e', designation: 'dev' });
    // Their own company: a stranger's is refused for the company before any input is read.
    const companyId: string = (await api('POST', '/companies', { name: 'Nul Analytics' }, cookie)).json().payload._id;
    const counts = await tableCounts(t.app);
    const attacks = [
      ['sign-in email', await api('POST', '/auth/signin', { email: 'nul@example.com\u0000', password: GOOD_PASSWORD }), 'email'],
      ['sign-in password', await api('POST', '/auth/signin', { email: 'nul@example.com', password: `${GOOD_PASSWORD}\u0000` }), 'password'],
      ['sign-up name', await api('POST', '/users', { firstName: 'A\u0000a', lastName: 'Lovelace', email: 'nul2@example.com', password: GOOD_PASSWORD }), 'firstName'],
      ['forgot password', await api('POST', '/auth/forgot-password', { email: '\u0000@example.com' }), 'email'],
      ['reset token', await api('POST', '/auth/verify/reset-token', { token: 'abc\u0000' }), 'token'],
      ['pricing', await api('POST', '/deployments/pricing', { plan: 'p\u0000', planConfig: { region: 'eu', features: ['x\u0000'] }, payment: { term: { cycle: 'monthly' } } }), 'plan'],
      ['configurables query', await api('GET', '/plans/configurables?providerCode=aws%00', undefined, cookie), 'providerCode'],
      ['configurables params', await api('GET', '/plans/configurables/public/aws%00x'), 'providerCode'],
      ['list query', await api('GET', '/admin/users?filter=%7B%22q%22%3A%22a%00%22%7D', undefined, cookie), 'filter'],
      // Escaped inside a JSON parameter: only the parsed filter shows it.
      ['list query, escaped', await api('GET', `/deployments?company=${companyId}&range=[0,9]&filter=${encodeURIComponent('{"q":"a\\u0000b"}')}`, undefined, cookie), 'filter.q'],
      ['key with NUL', await api('POST', '/auth/signin', { 'email\u0000': 'x', email: 'nul@example.com', password: GOOD_PASSWORD }), '_'],
      ['multipart field', await t.app.inject({ method: 'PUT', url: `/api/v1/users/${userId}`, payload: form.body, headers: { ...form.headers, cookie } }), 'firstName'],
      [
        'lone surrogate',
        await t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: `{"email":"nul@example.com","password":"Tr1cky-\\ud800"}`, headers: { 'content-type': 'application/json' } }),
        'password',
      ],
      ['lone low surrogate', await api('POST', '/auth/magic-link', { email: 'a\udc00@example.com' }), 'email'],
    ] as const;
    for (const [name, attack, field] of attacks) {
      expect(attack.statusCode, `${name}: ${attack.body}`).toBe(400);
      expect(attack.json().code, name).toBe('VALIDATION_FAILED');
      expect(Object.keys(attack.json().payload.errors ?? {}), name).toContain(field);
    }
    expect(await tableCounts(t.app)).toEqual(counts);
    // The sign-up with a NUL in the name left no account behind.
    expect(await t.app.database.rows(`select id from users where email = 'nul2@example.com'`)).toEqual([]);
  });

  it('still accepts ordinary non-ASCII text (accents, emoji, right-to-left)', async () => {
    const res = await api('POST', '/users', { firstName: 'Zoë 😀', lastName: 'שלום', email: 'unicode@example.com', password: GOOD_PASSWORD });
    expect(res.statusCode).toBe(201);
    const rows = await t.app.database.rows<{ first_name: string; last_name: string }>("select first_name, last_name from users where email = 'unicode@example.com'");
    expect(rows[0]).toEqual({ first_name: 'Zoë 😀', last_name: 'שלום' });
  });
});

describe('the log of a whole run', () => {
  it('holds no password, password hash, mailed token, second-factor secret or code, cookie, nor SQL parameters', async () => {
    const email = 'logged@example.com';
    const { cookie } = await signUp(t.app, email);
    keep(GOOD_PASSWORD, cookieValue(cookie));
    const verifyToken = tokenOf((await waitForMail(t.app, email, 'Verify')).link);
    keep(verifyToken);
    expect((await api('POST', '/auth/verify', { token: verifyToken }, cookie)).statusCode).toBe(200);

    // Wrong and right passwords, with the password also in the query of a mistaken GET.
    const wrong = 'Wr0ng-Passphrase!';
    keep(wrong);
    expect((await api('POST', '/auth/signin', { email, password: wrong })).statusCode).toBe(401);
    const signedIn = await api('POST', '/auth/signin', { email, password: GOOD_PASSWORD }, cookie);
    expect(signedIn.statusCode).toBe(200);
    const session = sessionCookie(signedIn);
    keep(cookieValue(session));
    await api('GET', `/auth/me?password=${encodeURIComponent(wrong)}&token=${verifyToken}`, undefined, session);

    // Second factor: the secret, the codes typed, the recovery codes answered.
    const setup = (await api('POST', '/auth/2fa/initiate', undefined, session)).json().payload;
    keep(setup.secret);
    const enabled = await api('POST', '/auth/2fa/enable', { code: totpNow(setup.secret), password: GOOD_PASSWORD }, session);
    expect(enabled.statusCode).toBe(200);
    const recoveryCodes: string[] = enabled.json().payload.recoveryCodes;
    keep(...recoveryCodes);
    const withCode = await api('POST', '/auth/signin', { email, password: GOOD_PASSWORD, authCode: recoveryCodes[0] });
    expect(withCode.statusCode).toBe(200);
    keep(cookieValue(sessionCookie(withCode)));

    // Mailed links: reset (checked, then used), magic link, and the unlock link opened by GET.
    await api('POST', '/auth/forgot-password', { email });
    const resetToken = tokenOf((await waitForMail(t.app, email, 'Reset')).link);
    keep(resetToken);
    expect((await api('POST', '/auth/verify/reset-token', { token: resetToken })).statusCode).toBe(200);
    await api('POST', '/auth/magic-link', { email });
    keep(tokenOf((await waitForMail(t.app, email, 'sign-in link')).link));
    // Locked out by wrong passwords (an administrator's lock sends no unlock mail).
    for (let i = 0; i < 5; i += 1) await api('POST', '/auth/signin', { email, password: wrong });
    await api('POST', '/auth/request-unlock', { email });
    const unlockToken = tokenOf((await waitForMail(t.app, email, 'Unlock')).link);
    keep(unlockToken);
    expect((await api('GET', `/auth/unlock?token=${unlockToken}`)).statusCode).toBe(303);

    // NUL attacks and a failing query whose parameters hold a password hash.
    await api('POST', '/auth/signin', { email: `${email}\u0000`, password: GOOD_PASSWORD });
    const failed = await t.app.inject({ method: 'GET', url: '/test/failing-query', headers: { cookie: session } });
    expect(failed.statusCode).toBe(500);
    const [stored] = await t.app.database.rows<{ hash: string }>(`select password_hash as hash from users where email = '${email}'`);
    keep(stored?.hash ?? 'no hash stored');

    const text = log.text();
    // The log did capture the run: requests, the unlock URL with its token masked, the failed query.
    expect(text).toContain('incoming request');
    expect(text).toContain('/api/v1/auth/unlock?token=[redacted]');
    expect(text).toContain('Failed query: select $1::int as broken');
    expect(text).toContain('params: [redacted]');
    for (const secret of secrets) expect(text.includes(secret), `log holds a secret (${secret.slice(0, 4)}…)`).toBe(false);
    expect(text).not.toContain('$argon2');
    expect(text).not.toMatch(/"cookie"\s*:\s*"(?!\[redacted\])/);
  });
});

describe('mailed links with SMTP configured', () => {
  it('reach the mailbox, but neither the outbox table nor the log keeps a usable token', async () => {
    const sink = await startSmtpSink();
    const smtpLog = captureLog();
    const s = await createTestApp({ SMTP_URL: sink.url, AUTH_RATE_LIMIT_PER_MINUTE: '10000' }, { logger: { level: 'trace', stream: smtpLog.stream } });
    try {
      const email = 'smtp@example.com';
      const res = await s.app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName: 'Sam', lastName: 'Smtp', email, password: GOOD_PASSWORD } });
      expect(res.statusCode).toBe(201);
      const verify = tokenOf(/https?:\/\/\S+/.exec((await sink.waitFor(email, 'Verify')).text)?.[0] ?? '');
      expect(verify).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await s.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email } });
      const reset = tokenOf(/https?:\/\/\S+/.exec((await sink.waitFor(email, 'Reset')).text)?.[0] ?? '');
      expect(reset).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const outbox = await s.app.database.rows<{ text: string; html: string; subject: string }>('select subject, text, html from mail_outbox');
      for (const row of outbox) {
        for (const token of [verify, reset]) expect(`${row.subject}${row.text}${row.html}`).not.toContain(token);
      }
      for (const token of [verify, reset]) expect(smtpLog.text()).not.toContain(token);
      expect(smtpLog.text()).toContain('mail sent');
    } finally {
      await s.close();
      await sink.close();
    }
  });
});
