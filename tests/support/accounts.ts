import type { FastifyInstance } from 'fastify';
import { signUp, tokenOf, waitForMail } from './auth';

/** Signs up and follows the mailed verification link: a member who proved their mailbox. */
export async function signUpVerified(app: FastifyInstance, email: string) {
  const signedUp = await signUp(app, email);
  const mail = await waitForMail(app, email.toLowerCase(), 'Verify');
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { token: tokenOf(mail.link) }, headers: { cookie: signedUp.cookie } });
  if (res.statusCode !== 200) throw new Error(`verification failed: ${res.statusCode} ${res.body}`);
  return signedUp;
}
