import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, call, raQuery } from '../support/admin';
import { GOOD_PASSWORD, sessionCookie, tokenOf, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { totpNow } from '../support/totp';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: string;
const EMAIL = 'journey@example.com';

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  admin = await adminCookie(t.app);
});
afterAll(() => t.close());

type Row = {
  action: string;
  actor_email: string | null;
  target_type: string;
  target_id: string;
  company_id: string | null;
  ip: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};
const rows = () => t.app.database.rows<Row>('select action, actor_email, target_type, target_id, company_id, ip, before, after from audit_logs order by at, id');
const post = (url: string, cookie: string | undefined, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });

describe('the account and company services write the audit log', () => {
  it('records each action with who, the target, the IP and the fields before and after', async () => {
    // Sign-up, sign-in and verification.
    const { cookie } = await signUpVerified(t.app, EMAIL);
    const [user] = await t.app.database.rows<{ id: string }>(`select id from users where email = '${EMAIL}'`);
    const id = user?.id ?? '';
    // Profile.
    await t.app.inject({ method: 'PUT', url: `/api/v1/users/${id}`, payload: { firstName: 'Grace', designation: 'dev' }, headers: { cookie } });
    // Two-factor on and off.
    const setup = (await post('/auth/2fa/initiate', cookie, {})).json().payload;
    expect((await post('/auth/2fa/enable', cookie, { code: totpNow(setup.secret) })).statusCode).toBe(200);
    expect((await post('/auth/2fa/disable', cookie, { code: totpNow(setup.secret, 1) })).statusCode).toBe(200);
    // Company: create, update, invite, revoke, invite and accept, remove the member.
    const company = (await post('/companies', cookie, { name: 'Journey Co' })).json().payload;
    await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${company._id}`, payload: { name: 'Journey Ltd' }, headers: { cookie } });
    await post(`/companies/${company._id}/invitations`, cookie, { email: 'gone@example.com', role: 'viewer' });
    const [invitation] = await t.app.database.rows<{ id: string }>("select id from invitations where email = 'gone@example.com'");
    await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${company._id}/invitations/${invitation?.id}`, headers: { cookie } });
    const sent = new Date();
    await post(`/companies/${company._id}/invitations`, cookie, { email: 'joiner@example.com', role: 'viewer' });
    const mail = await waitForMail(t.app, 'joiner@example.com', 'invited', sent);
    expect((await post('/companies/users/invited', undefined, { token: tokenOf(mail.link), firstName: 'Joe', lastName: 'Iner', designation: 'dev', password: 'Joiner#Pass42' })).statusCode).toBe(201);
    const [joiner] = await t.app.database.rows<{ id: string }>("select id from users where email = 'joiner@example.com'");
    await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${company._id}/users/${joiner?.id}`, headers: { cookie } });
    // Company deletion with the mailed code.
    const codeSent = new Date();
    await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${company._id}`, payload: {}, headers: { cookie } });
    const codeMail = await waitForMail(t.app, EMAIL, '', codeSent);
    const code = /\b(\d{5})\b/.exec(codeMail.text)?.[1] ?? '';
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${company._id}`, payload: { verificationCode: code }, headers: { cookie } })).statusCode).toBe(200);
    // Password change (signs out), a reset, then the account's deletion.
    expect((await post('/auth/set-password', cookie, { oldPassword: GOOD_PASSWORD, password: 'Second#Pass-2' })).statusCode).toBe(200);
    const resetAsked = new Date();
    await post('/auth/forgot-password', undefined, { email: EMAIL });
    const reset = await waitForMail(t.app, EMAIL, 'Reset', resetAsked);
    expect((await post('/auth/reset-password', undefined, { token: tokenOf(reset.link), password: 'Third#Pass-33' })).statusCode).toBe(200);
    const again = sessionCookie(await post('/auth/signin', undefined, { email: EMAIL, password: 'Third#Pass-33' }));
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/me', payload: { password: 'Third#Pass-33' }, headers: { cookie: again } })).statusCode).toBe(200);

    const log = (await rows()).filter((r) => r.actor_email === EMAIL || r.target_id === id);
    expect(log.map((r) => r.action)).toEqual([
      'user.signUp',
      'user.signIn',
      'user.verify',
      'user.update',
      'user.twoFactorOn',
      'user.twoFactorOff',
      'company.create',
      'company.update',
      'invitation.create',
      'invitation.revoke',
      'invitation.create',
      'member.remove',
      'company.delete',
      'user.passwordChange',
      'user.passwordReset',
      'user.signIn',
      'user.delete',
    ]);
    const by = (action: string) => log.find((r) => r.action === action);
    expect(by('user.update')).toMatchObject({ target_type: 'user', target_id: id, before: { firstName: 'Ada', designation: null }, after: { firstName: 'Grace', designation: 'dev' } });
    expect(by('company.update')).toMatchObject({ target_type: 'company', company_id: company._id, before: { name: 'Journey Co' }, after: { name: 'Journey Ltd' } });
    expect(by('member.remove')).toMatchObject({ target_type: 'member', target_id: joiner?.id, before: { role: 'viewer' } });
    expect(by('user.twoFactorOn')).toMatchObject({ before: { mfaEnabled: false }, after: { mfaEnabled: true } });
    expect(log.every((r) => r.ip === '127.0.0.1')).toBe(true);
    // The joiner's own sign-up and acceptance are theirs.
    // One transaction, one time: their order within it is the id's.
    const joinerRows = (await rows()).filter((r) => r.actor_email === 'joiner@example.com').map((r) => r.action);
    expect(joinerRows.sort()).toEqual(['invitation.accept', 'user.signUp']);
  });
});

describe('admin logs', () => {
  const list = (query: Record<string, unknown>, cookie = admin) => call(t.app, 'GET', `/admin/logs?${raQuery(query)}`, cookie);

  it('lists newest first, filters by target type, action, actor and date, and searches', async () => {
    const all = await list({ range: [0, 999] });
    expect(all.statusCode).toBe(200);
    const total = Number(all.headers['content-range']?.toString().split('/')[1]);
    const times = all.json().payload.map((r: { at: string }) => r.at);
    expect(times).toEqual([...times].sort().reverse());
    const companies = (await list({ filter: { targetType: 'company' }, range: [0, 99] })).json().payload;
    expect(companies.map((r: { action: string }) => r.action).sort()).toEqual(['company.create', 'company.delete', 'company.update']);
    expect((await list({ filter: { action: 'user.signIn' } })).headers['content-range']).toMatch(/\/[1-9]\d*$/);
    const userActions = (await list({ filter: { action: 'user.' }, range: [0, 999] })).json().payload;
    expect(userActions.every((r: { action: string }) => r.action.startsWith('user.'))).toBe(true);
    const joiner = (await list({ filter: { actor: 'joiner@' }, range: [0, 99] })).json().payload;
    // One transaction, one time: their order within it is the id's.
    expect(joiner.map((r: { action: string }) => r.action).sort()).toEqual(['invitation.accept', 'user.signUp']);
    expect((await list({ filter: { from: '2999-01-01' } })).headers['content-range']).toBe('logs 0-0/0');
    expect((await list({ filter: { to: '2000-01-01' } })).headers['content-range']).toBe('logs 0-0/0');
    expect((await list({ filter: { q: 'twoFactor' }, range: [0, 99] })).json().payload).toHaveLength(2);
    expect((await list({ sort: ['action', 'ASC'], range: [0, 0] })).json().payload[0].action).toBe('company.create');
    // The admin's sign-in, the journey's 17 entries and the joiner's 2.
    expect(total).toBe(20);
    expect((await list({ filter: { targetType: 'spaceship' } })).statusCode).toBe(400);
  });

  it('exports the filtered log as CSV with before and after, and shows one entry', async () => {
    const res = await call(t.app, 'GET', `/admin/logs/export?format=csv&${raQuery({ filter: { action: 'company.update' } })}`, admin);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe('ID,When,Who,Who (id),What,Target type,Target,Target (id),Company,Company (id),IP,Before,After');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"{""name"":""Journey Co""');
    const [first] = (await list({ range: [0, 0] })).json().payload;
    expect((await call(t.app, 'GET', `/admin/logs/${first._id}`, admin)).json().payload).toEqual(first);
  });

  it('cannot be edited through the API, and reading it is for platform admins only', async () => {
    const [first] = (await list({ range: [0, 0] })).json().payload;
    const before = await tableCounts(t.app);
    for (const method of ['PUT', 'DELETE', 'POST'] as const) {
      expect((await call(t.app, method, `/admin/logs/${first._id}`, admin, {})).statusCode).toBe(404);
    }
    expect((await call(t.app, 'POST', '/admin/logs', admin, { action: 'forged' })).statusCode).toBe(404);
    const { cookie } = await signUpVerified(t.app, 'curious@example.com');
    const counted = await tableCounts(t.app);
    expect((await list({}, cookie)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', `/admin/logs/export?format=json`, cookie)).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(counted);
    expect(counted.audit_logs).toBeGreaterThan(before.audit_logs ?? 0);
  });
});
