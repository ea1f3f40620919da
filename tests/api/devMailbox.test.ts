import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../support/auth';
import { createTestApp, type TestApp } from '../support/testApp';

/** The development mailbox: where a newcomer without a mail server reads the verification link. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
});
afterAll(() => t.close());

const signUp = (email: string, firstName = 'Ada') =>
  t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName, lastName: 'Lovelace', email, password: 'Tr1cky-Lantern' } });

describe('the development mailbox', () => {
  it('lists the outbox newest first, each mail with its links, escaping what users wrote', async () => {
    expect((await signUp('first@example.com')).statusCode).toBe(201);
    const first = await waitForMail(t.app, 'first@example.com', 'Verify');
    expect((await signUp('second@example.com', "O'Brien & Sons")).statusCode).toBe(201);
    const second = await waitForMail(t.app, 'second@example.com', 'Verify');

    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const html = page.body;
    expect(html).toContain('<h1>Beacon development mailbox</h1>');
    // Newest first, and each link is one to click.
    expect(html.indexOf('To second@example.com')).toBeLessThan(html.indexOf('To first@example.com'));
    for (const link of [first.link, second.link]) expect(html).toContain(`<a href="${link.replace(/&/g, '&amp;')}">`);
    expect(html).not.toContain("O'Brien & Sons");
    expect(html).toContain('O&#39;Brien &amp; Sons');
  });

  it('answers nobody but this machine: another address gets what an unknown path gets', async () => {
    const fromElsewhere = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '203.0.113.7' });
    const unknown = await t.app.inject({ method: 'GET', url: '/dev/nothing-here', remoteAddress: '203.0.113.7' });
    expect(fromElsewhere.statusCode).toBe(404);
    expect(fromElsewhere.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(fromElsewhere.json()).toEqual({ ...unknown.json(), message: unknown.json().message.replace('/dev/nothing-here', '/dev/mailbox') });
  });

  it('does not exist with a mail server, nor in production', async () => {
    const envs: Record<string, string>[] = [{ SMTP_URL: 'smtp://127.0.0.1:1' }, { NODE_ENV: 'production' }];
    for (const env of envs) {
      const other = await createTestApp(env);
      try {
        const res = await other.app.inject({ method: 'GET', url: '/dev/mailbox' });
        expect(res.statusCode, JSON.stringify(env)).toBe(404);
        expect(res.json().code).toBe('ROUTE_NOT_FOUND');
      } finally {
        await other.close();
      }
    }
  });
});
