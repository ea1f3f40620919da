import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const GOOD_PASSWORD = 'Tr1cky-Lantern';

/** `name=value` of the session cookie a reply set (`__Host-` prefixed on https), for the next request's Cookie header. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'beacon_session' || c.name === '__Host-beacon_session');
  if (!cookie) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** The newest mail to an address in the outbox (mails go there without SMTP_URL); waits for it. */
export async function waitForMail(app: FastifyInstance, to: string, subjectPart: string, after = new Date(0)): Promise<{ subject: string; text: string; html: string; link: string }> {
  for (let i = 0; i < 100; i += 1) {
    const rows = await app.database.rows<{ subject: string; text: string; html: string }>(
      `select subject, text, html from mail_outbox where "to" = '${to.replace(/'/g, "''")}' and created_at > '${after.toISOString()}'
         and strpos(subject, '${subjectPart.replace(/'/g, "''")}') > 0 order by created_at desc limit 1`,
    );
    const mail = rows[0];
    if (mail) {
      // Code mails carry no link: '' then.
      return { ...mail, link: /https?:\/\/\S+/.exec(mail.text)?.[0] ?? '' };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no mail "${subjectPart}" to ${to}`);
}

export const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/**
 * Signs up (which signs nobody in), waits for the verification mail, then signs in with the
 * password: the cookie is an unverified account's session, as after a sign-up in the browser.
 */
export async function signUp(app: FastifyInstance, email: string, password = GOOD_PASSWORD) {
  const signUpRes = await app.inject({ method: 'POST', url: '/api/v1/users', payload: { firstName: 'Ada', lastName: 'Lovelace', email, password } });
  if (signUpRes.statusCode !== 201) throw new Error(`sign-up failed: ${signUpRes.statusCode} ${signUpRes.body}`);
  // The verification mail goes out after the answer; wait for it so later row counts hold still.
  const mail = await waitForMail(app, email.toLowerCase(), 'Verify');
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in after sign-up failed: ${res.statusCode} ${res.body}`);
  return { res, cookie: sessionCookie(res), verifyLink: mail.link };
}
