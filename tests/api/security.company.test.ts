import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../server/services/idempotency';
import { signUpVerified } from '../support/accounts';
import { signUp, waitForMail } from '../support/auth';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Security review: invitations, the company-deletion code, idempotent company creation.
const INVITATION_LIMIT = 3;
let t: TestApp;
let owner: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INVITATIONS_PER_COMPANY_PER_DAY: String(INVITATION_LIMIT) });
  owner = (await signUpVerified(t.app, 'owner@example.com')).cookie;
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie, ...headers } });
const newCompany = async (cookie: string, name: string): Promise<string> => (await api('POST', '/companies', cookie, { name })).json().payload._id;
const count = async (sql: string) => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from ${sql}`))[0]?.n;

describe('8. invitations', () => {
  it('refuses an invitation from an account whose email is not verified: 403, no invitation, no mail', async () => {
    const unverified = (await signUp(t.app, 'unverified@example.com')).cookie;
    // Such an account makes no company; it can only be an admin of one from before that rule.
    const companyId = await newCompany(owner, 'Unproven Co');
    await t.app.database.rows(`insert into company_members (company_id, user_id, role) select '${companyId}', id, 'admin' from users where email = 'unverified@example.com'`);
    const before = await tableCounts(t.app);
    const res = await api('POST', `/companies/${companyId}/invitations`, unverified, { email: 'target@example.com', role: 'admin' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: 'Verify your email address first: open the link we mailed you, or send a new one.' });
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await count(`mail_outbox where "to" = 'target@example.com'`)).toBe(0);
  });

  it('stops a company at the daily limit; re-sending or cancelling does not give invitations back', async () => {
    const companyId = await newCompany(owner, 'Limited Co');
    const invite = (email: string) => api('POST', `/companies/${companyId}/invitations`, owner, { email, role: 'viewer' });
    expect((await invite('one@example.com')).statusCode).toBe(201);
    expect((await invite('one@example.com')).statusCode).toBe(201); // re-sent: replaces the pending one, counts
    const [pending] = await t.app.database.rows<{ id: string }>(`select id from invitations where company_id = '${companyId}'`);
    expect((await api('DELETE', `/companies/${companyId}/invitations/${pending?.id ?? ''}`, owner)).statusCode).toBe(200);
    expect((await invite('two@example.com')).statusCode).toBe(201);
    // Invitations are mailed after the answer: wait for all three before counting rows.
    await waitForMail(t.app, 'two@example.com', 'invited you');
    await expect.poll(() => count(`mail_outbox where "to" = 'one@example.com'`)).toBe(2);

    const before = await tableCounts(t.app);
    const refused = await invite('three@example.com');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('INVITATION_LIMIT');
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await count(`mail_outbox where "to" = 'three@example.com'`)).toBe(0);
  });

  it('lets parallel invitations past the limit not even by one', async () => {
    const companyId = await newCompany(owner, 'Racing Co');
    const results = await Promise.all(
      Array.from({ length: INVITATION_LIMIT + 3 }, (_, i) => api('POST', `/companies/${companyId}/invitations`, owner, { email: `race${i}@example.com`, role: 'viewer' })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(INVITATION_LIMIT);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(3);
    expect(await count(`invitations where company_id = '${companyId}'`)).toBe(INVITATION_LIMIT);
    await expect.poll(() => count(`mail_outbox where "to" like 'race%'`)).toBe(INVITATION_LIMIT);
  });

  it('puts no user-chosen name into the subject, where a mail client would show a link', async () => {
    const names = ['Win a prize at evil.example', 'http://evil.example'];
    for (const [i, name] of names.entries()) {
      // Validation refuses such names today; older rows or admin edits may still hold them.
      const companyId = await newCompany(owner, `Renamed ${i}`);
      await t.app.database.rows(`update companies set name = '${name}' where id = '${companyId}'`);
      await t.app.database.rows(`update users set first_name = 'www.evil.example' where email = 'owner@example.com'`);
      const to = `subject${i}@example.com`;
      expect((await api('POST', `/companies/${companyId}/invitations`, owner, { email: to, role: 'viewer' })).statusCode).toBe(201);
      const mail = await waitForMail(t.app, to, 'invited you');
      expect(mail.subject).toBe('A teammate invited you to Beacon');
      expect(mail.subject).not.toMatch(/evil|:\/\/|\w\.\w/);
    }
  });
});

describe('11. the company-deletion code', () => {
  const codeOf = (text: string) => /\b(\d{5})\b/.exec(text)?.[1] ?? '';
  const wrongFor = (code: string) => (code === '00000' ? '11111' : '00000');

  it('counts wrong codes per company over an hour: a new code does not reset them, and even the right one is refused', async () => {
    const companyId = await newCompany(owner, 'Guess Me');
    const since = new Date();
    expect((await api('DELETE', `/companies/${companyId}`, owner, {})).statusCode).toBe(202);
    const code = codeOf((await waitForMail(t.app, 'owner@example.com', 'delete a company', since)).text);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await api('DELETE', `/companies/${companyId}`, owner, { verificationCode: wrongFor(code) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('CODE_INVALID');
    }
    const sixth = await api('DELETE', `/companies/${companyId}`, owner, { verificationCode: wrongFor(code) });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts. Please try again in an hour.' });

    // Asking again mails a new code, but it buys no new guesses: the right code is refused too.
    const again = new Date();
    expect((await api('DELETE', `/companies/${companyId}`, owner, {})).statusCode).toBe(202);
    const fresh = codeOf((await waitForMail(t.app, 'owner@example.com', 'delete a company', again)).text);
    const before = await tableCounts(t.app);
    const refused = await api('DELETE', `/companies/${companyId}`, owner, { verificationCode: fresh });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await api('GET', `/companies/${companyId}`, owner)).statusCode).toBe(200);

    // Once the hour has passed, the right code works.
    await t.app.database.rows(`update limit_events set created_at = now() - interval '61 minutes' where scope like 'deletion%'`);
    expect((await api('DELETE', `/companies/${companyId}`, owner, { verificationCode: fresh })).statusCode).toBe(200);
  });

  it('counts wrong codes per user too: guessing across several companies hits the same limit', async () => {
    const guesser = (await signUpVerified(t.app, 'guesser@example.com')).cookie;
    const ids = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => newCompany(guesser, `Guesser ${i}`)));
    for (const id of ids.slice(0, 5)) {
      const sent = new Date();
      expect((await api('DELETE', `/companies/${id}`, guesser, {})).statusCode).toBe(202);
      const code = codeOf((await waitForMail(t.app, 'guesser@example.com', 'delete a company', sent)).text);
      expect((await api('DELETE', `/companies/${id}`, guesser, { verificationCode: wrongFor(code) })).statusCode).toBe(400);
    }
    const last = ids[5] ?? '';
    const since = new Date();
    expect((await api('DELETE', `/companies/${last}`, guesser, {})).statusCode).toBe(202);
    const code = codeOf((await waitForMail(t.app, 'guesser@example.com', 'delete a company', since)).text);
    const before = await tableCounts(t.app);
    expect((await api('DELETE', `/companies/${last}`, guesser, { verificationCode: code })).json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('limits how often a code may be asked for', async () => {
    const companyId = await newCompany(owner, 'Mail Bomb');
    for (let i = 0; i < 5; i += 1) expect((await api('DELETE', `/companies/${companyId}`, owner, {})).statusCode).toBe(202);
    const mails = await count(`mail_outbox where "to" = 'owner@example.com'`);
    const before = await tableCounts(t.app);
    const refused = await api('DELETE', `/companies/${companyId}`, owner, {});
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await count(`mail_outbox where "to" = 'owner@example.com'`)).toBe(mails);
  });
});

describe('21. POST /companies with an Idempotency-Key', () => {
  const create = (cookie: string, key: string | undefined, name: string) => api('POST', '/companies', cookie, { name }, key === undefined ? {} : { 'idempotency-key': key });
  const companiesNamed = (name: string) => count(`companies where name = '${name}'`);

  it('answers a retry with the first answer: the same company, created once', async () => {
    const first = await create(owner, 'retry-key-1', 'Retried Co');
    expect(first.statusCode).toBe(201);
    const retry = await create(owner, 'retry-key-1', 'Retried Co');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().payload._id).toBe(first.json().payload._id);
    expect(await companiesNamed('Retried Co')).toBe(1);
  });

  it('refuses the same key with another body (422) and a malformed key (400), changing nothing', async () => {
    expect((await create(owner, 'reused-key', 'First Body')).statusCode).toBe(201);
    const before = await tableCounts(t.app);
    const reused = await create(owner, 'reused-key', 'Other Body');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const malformed = await create(owner, 'x'.repeat(256), 'Other Body');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('creates one company for two simultaneous requests with the same key', async () => {
    const [a, b] = await Promise.all([create(owner, 'parallel-key', 'Parallel Co'), create(owner, 'parallel-key', 'Parallel Co')]);
    const statuses = [a?.statusCode, b?.statusCode].sort();
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    if (statuses[1] === 201) expect(a?.json().payload._id).toBe(b?.json().payload._id);
    else expect([a, b].find((r) => r?.statusCode === 409)?.json().code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
    expect(await companiesNamed('Parallel Co')).toBe(1);
  });

  it('scopes keys per user: another user with the same key gets a company of their own', async () => {
    const other = (await signUpVerified(t.app, 'other-key-user@example.com')).cookie;
    const mine = await create(owner, 'shared-key', 'Key Co');
    const theirs = await create(other, 'shared-key', 'Key Co');
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().payload._id).not.toBe(mine.json().payload._id);
    expect(theirs.json().payload.role).toBe('admin');
    expect(await companiesNamed('Key Co')).toBe(2);
  });

  it('without a key behaves as before: each request creates a company', async () => {
    await create(owner, undefined, 'Keyless Co');
    await create(owner, undefined, 'Keyless Co');
    expect(await companiesNamed('Keyless Co')).toBe(2);
  });

  it('in required mode refuses a request without a key; failed work releases the key for a retry', async () => {
    const idempotency = createIdempotency({ db: t.app.database.db });
    const [user] = await t.app.database.rows<{ id: string }>(`select id from users where email = 'owner@example.com'`);
    const userId = user?.id ?? '';
    const req = { userId, request: 'POST /deployments', payload: { a: 1, b: [2, { c: 3, d: 4 }] }, required: true };
    await expect(idempotency.run({ ...req, key: undefined }, async () => ({ status: 201, body: 'never' }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID', statusCode: 400 });
    await expect(idempotency.run({ ...req, key: 'failing' }, async () => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect(await count(`idempotency_keys where key = 'failing'`)).toBe(0);
    const retried = await idempotency.run({ ...req, key: 'failing' }, async () => ({ status: 201, body: { ok: true } }));
    expect(retried).toEqual({ status: 201, body: { ok: true }, replayed: false });
    // Same payload with keys in another order is the same request.
    expect(await idempotency.run({ ...req, key: 'failing', payload: { b: [2, { d: 4, c: 3 }], a: 1 } }, async () => ({ status: 500, body: null }))).toEqual({ status: 201, body: { ok: true }, replayed: true });
  });
});
