import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, sessionCookie, tokenOf, waitForMail } from '../support/auth';
import { signUpVerified } from '../support/accounts';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

let t: TestApp;
let owner: string;
let outsider: string;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  // Only members who verified their email may invite.
  owner = (await signUpVerified(t.app, 'owner@example.com')).cookie;
  outsider = (await signUpVerified(t.app, 'outsider@example.com')).cookie;
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string | undefined, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });

describe('onboarding: POST /companies', () => {
  it('creates the company with its creator as admin, a default project and the designation', async () => {
    const res = await api('POST', '/companies?onboarding=1&designation=pm', owner, { name: 'Acme Analytics', size: '11-50' });
    expect(res.statusCode).toBe(201);
    const company = res.json().payload;
    expect(company).toMatchObject({ name: 'Acme Analytics', size: '11-50', role: 'admin' });
    expect(company.projects).toHaveLength(1);
    companyId = company._id;
    const me = (await api('GET', '/auth/me', owner)).json().payload;
    expect(me.companies).toEqual([{ _id: companyId, name: 'Acme Analytics', role: 'admin' }]);
    expect(me.designation).toBe('pm');
  });

  it('refuses a name with a URL, HTML or the wrong length, changing nothing', async () => {
    for (const [name, message] of [
      ['Visit https://evil.example', 'A URL is not allowed here.'],
      ['www.acme', 'A URL is not allowed here.'],
      ['acme.com', 'A URL is not allowed here.'],
      ['<i>Acme</i>', 'HTML is not allowed.'],
      ['A', 'Use 2 to 64 characters.'],
    ] as const) {
      const before = await tableCounts(t.app);
      const res = await api('POST', '/companies', owner, { name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().payload.errors.name).toContain(message);
      expect(await tableCounts(t.app)).toEqual(before);
    }
  });
});

describe('every company-scoped call checks membership', () => {
  it('answers 403 to a non-member and changes nothing', async () => {
    const calls: [('GET' | 'PUT' | 'POST' | 'DELETE'), string, Record<string, unknown> | undefined][] = [
      ['GET', `/companies/${companyId}`, undefined],
      ['PUT', `/companies/${companyId}`, { name: 'Taken Over' }],
      ['DELETE', `/companies/${companyId}`, {}],
      ['GET', `/companies/${companyId}/users`, undefined],
      ['POST', `/companies/${companyId}/invitations`, { email: 'x@example.com', role: 'admin' }],
      ['DELETE', `/companies/${companyId}/users/00000000-0000-4000-8000-000000000000`, undefined],
      ['DELETE', `/companies/${companyId}/invitations/00000000-0000-4000-8000-000000000000`, undefined],
      ['GET', `/plangroups/company/${companyId}/plans`, undefined],
      ['GET', '/companies/not-a-uuid', undefined],
    ];
    for (const [method, url, payload] of calls) {
      const before = await tableCounts(t.app);
      const res = await api(method, url, outsider, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'NOT_A_MEMBER', message: 'You do not have access to this company.' });
      expect(await tableCounts(t.app)).toEqual(before);
    }
  });

  it('answers 401 without a session', async () => {
    expect((await api('GET', `/companies/${companyId}`, undefined)).statusCode).toBe(401);
  });
});

describe('invitations and the team', () => {
  it('invites by mail; the invited person signs up from the link and joins with the role', async () => {
    expect((await api('POST', `/companies/${companyId}/invitations`, owner, { email: 'viewer@example.com', role: 'viewer' })).statusCode).toBe(201);
    const mail = await waitForMail(t.app, 'viewer@example.com', 'invited you');
    const token = tokenOf(mail.link);
    expect((await api('POST', '/companies/users/check-invited', undefined, { token })).json().payload).toMatchObject({ email: 'viewer@example.com', companyName: 'Acme Analytics', role: 'viewer', existingUser: false });
    const short = await api('POST', '/companies/users/invited', undefined, { token, firstName: 'Vi', lastName: 'Ewer', designation: 'dev', password: GOOD_PASSWORD });
    expect(short.json().payload.errors.firstName).toEqual(['Use 3 to 64 characters.']);
    expect((await api('POST', '/companies/users/invited', undefined, { token, firstName: 'Vivian', lastName: 'Ewer', designation: 'dev', password: GOOD_PASSWORD })).statusCode).toBe(201);
    // The invitation is used.
    expect((await api('POST', '/companies/users/check-invited', undefined, { token })).statusCode).toBe(400);
    const team = (await api('GET', `/companies/${companyId}/users`, owner)).json().payload;
    expect(team.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual(
      expect.arrayContaining([
        ['owner@example.com', 'admin'],
        ['viewer@example.com', 'viewer'],
      ]),
    );
  });

  it('lets a viewer read but not invite or remove (403)', async () => {
    const viewer = sessionCookie(await api('POST', '/auth/signin', undefined, { email: 'viewer@example.com', password: GOOD_PASSWORD }));
    expect((await api('GET', `/companies/${companyId}/users`, viewer)).statusCode).toBe(200);
    const invite = await api('POST', `/companies/${companyId}/invitations`, viewer, { email: 'x@example.com', role: 'admin' });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().code).toBe('ROLE_REQUIRED');
  });

  it('cancels a pending invitation and keeps the last admin', async () => {
    await api('POST', `/companies/${companyId}/invitations`, owner, { email: 'later@example.com', role: 'admin' });
    const team = (await api('GET', `/companies/${companyId}/users`, owner)).json().payload;
    const invitation = team.invitations.find((i: { email: string }) => i.email === 'later@example.com');
    expect((await api('DELETE', `/companies/${companyId}/invitations/${invitation._id}`, owner)).statusCode).toBe(200);
    const ownerId = team.users.find((u: { email: string }) => u.email === 'owner@example.com')._id;
    const last = await api('DELETE', `/companies/${companyId}/users/${ownerId}`, owner);
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('LAST_ADMIN');
  });
});

describe('a company plan list', () => {
  it('is the public list without a plan group, and only the group\'s plans with one', async () => {
    const all = (await api('GET', `/plangroups/company/${companyId}/plans`, owner)).json().payload as { code: string }[];
    expect(all.map((p) => p.code)).toContain('v3.mau_1_000_gcp.base');
    await t.app.database.rows(`update companies set plan_group_id = (select id from plan_groups where name = 'Enterprise') where id = '${companyId}'`);
    const group = (await api('GET', `/plangroups/company/${companyId}/plans`, owner)).json().payload as { code: string }[];
    expect(group.map((p) => p.code)).toEqual(['v3.mau_1_000_000_gcp.base', 'v3.mau_2_500_000_gcp.base', 'v3.mau_5_000_000_gcp.base']);
  });
});

describe('deleting a company', () => {
  it('needs the mailed 5-digit code, which works once and expires', async () => {
    const id = (await api('POST', '/companies', owner, { name: 'Short Lived' })).json().payload._id;
    expect((await api('DELETE', `/companies/${id}`, owner, {})).statusCode).toBe(202);
    const mail = await waitForMail(t.app, 'owner@example.com', 'delete a company');
    const code = /\b(\d{5})\b/.exec(mail.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{5}$/);
    const wrong = await api('DELETE', `/companies/${id}`, owner, { verificationCode: code === '00000' ? '11111' : '00000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().payload.errors.verificationCode).toEqual(['The verification code is invalid.']);
    expect((await api('DELETE', `/companies/${id}`, owner, { verificationCode: 'abcde' })).statusCode).toBe(400);
    expect((await api('DELETE', `/companies/${id}`, owner, { verificationCode: code })).statusCode).toBe(200);
    expect((await api('GET', `/companies/${id}`, owner)).statusCode).toBe(403);

    const other = (await api('POST', '/companies', owner, { name: 'Expiring' })).json().payload._id;
    const since = new Date();
    await api('DELETE', `/companies/${other}`, owner, {});
    const second = await waitForMail(t.app, 'owner@example.com', 'delete a company', since);
    const code2 = /\b(\d{5})\b/.exec(second.text)?.[1] ?? '';
    await t.app.database.rows("update company_deletion_codes set expires_at = now() - interval '1 second'");
    expect((await api('DELETE', `/companies/${other}`, owner, { verificationCode: code2 })).statusCode).toBe(400);
    expect((await api('GET', `/companies/${other}`, owner)).statusCode).toBe(200);
  });
});

describe('PUT /companies/{id} with a logo', () => {
  it('uploads a logo as multipart, replaces and removes it; refuses big or non-image files and non-members, changing nothing', async () => {
    const { multipart, TINY_PNG } = await import('../support/multipart');
    const putLogo = async (cookie: string, data: Buffer) => {
      const { body, headers } = await multipart({ name: 'Acme Analytics', size: '11-50' }, { field: 'uploadLogo', name: 'logo.png', type: 'image/png', data });
      return t.app.inject({ method: 'PUT', url: `/api/v1/companies/${companyId}`, payload: body, headers: { ...headers, cookie } });
    };
    const first = await putLogo(owner, TINY_PNG);
    expect(first.statusCode).toBe(200);
    const logo: string = first.json().payload.logo;
    expect(logo).toMatch(/^\/api\/v1\/files\//);
    expect((await t.app.inject({ method: 'GET', url: logo })).headers['content-type']).toBe('image/png');

    const before = await tableCounts(t.app);
    const tooBig = await putLogo(owner, Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().payload.errors.uploadLogo).toEqual(['The file is too big (1 MB at most).']);
    expect((await putLogo(owner, Buffer.from('GIF8 but not really'))).json().code).toBe('FILE_TYPE');
    expect((await putLogo(outsider, TINY_PNG)).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await api('GET', `/companies/${companyId}`, owner)).json().payload.logo).toBe(logo);

    const removed = await api('PUT', `/companies/${companyId}`, owner, { name: 'Acme Analytics', removeLogo: true });
    expect(removed.json().payload.logo).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(404);
  });
});
