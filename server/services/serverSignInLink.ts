import { AppError } from '../errors';
import type { Keyring } from './secrets';

/** The claims a server sign-in link carries (GET /auth/{product}-server), as its query has them. */
export interface ServerSignInLink {
  user: string;
  server: string;
  /** Unix seconds. */
  exp: string;
  sig: string;
}

const PURPOSE = 'server-signin';
const claims = (server: string, user: string, exp: string) => `${server}.${user}.${exp}`;

/** Signs a link into `deploymentId`'s dashboard for `userId`, valid until `expiresAt`. */
export function signServerLink(keyring: Keyring, deploymentId: string, userId: string, expiresAt: Date): ServerSignInLink {
  const exp = String(Math.floor(expiresAt.getTime() / 1000));
  return { user: userId, server: deploymentId, exp, sig: keyring.mac(PURPOSE, claims(deploymentId, userId, exp)) };
}

/**
 * Checks a link the dashboard was opened through: our signature over its claims (compared in
 * constant time, under any key of the ring), made for this server and this signed-in user, and
 * not expired. A forged or someone else's link and an expired one are refused with their own codes.
 */
export function verifyServerLink(keyring: Keyring, link: ServerSignInLink, deploymentId: string, userId: string, now = new Date()): void {
  const genuine = keyring.verifyMac(PURPOSE, claims(link.server, link.user, link.exp), link.sig);
  if (!genuine || link.server !== deploymentId || link.user !== userId) throw new AppError('ANALYTICS_SIGNIN_LINK_INVALID');
  if (Number(link.exp) * 1000 <= now.getTime()) throw new AppError('ANALYTICS_SIGNIN_LINK_EXPIRED');
}
