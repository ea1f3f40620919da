import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serverSignInPath } from '../../src/domain/deployments/schemas';
import { AppError } from '../errors';
import { API_PREFIX } from './routeSchemas';
import { createSessionRowCache, resolveSession, type ResolvedSession, type SessionPolicy, type SessionUser } from '../services/sessions';

export const SESSION_COOKIE = 'beacon_session';

/**
 * On https the cookie is `__Host-beacon_session`: browsers accept that name only with Secure,
 * Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant or shadow it.
 */
export const sessionCookieName = (publicUrl: string) => (publicUrl.startsWith('https:') ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw session token the request's cookie carries, if any. */
    sessionToken(): string | undefined;
    /** The session the cookie names, resolved once per request on demand. */
    session(): Promise<ResolvedSession | null>;
    /** The signed-in session, or 401 'Authentication failed.'. */
    requireSession(): Promise<ResolvedSession>;
    /** The signed-in user, in a scope guarded by `signedIn` (the customer and admin scopes); 401 elsewhere. */
    readonly actor: SessionUser;
    /** The signed-in session itself (its id, when its holder last proved who they are, a view-as). */
    readonly actorSession: ResolvedSession;
  }
  interface FastifyReply {
    setSessionCookie(token: string): FastifyReply;
    clearSessionCookie(): FastifyReply;
  }
}

/** Sessions the `signedIn` hook let through, read by `request.actor` without another await. */
const signedInSessions = new WeakMap<FastifyRequest, ResolvedSession>();

/** A scope's hook: a request without a session is refused before its body is read. */
export async function signedIn(request: FastifyRequest): Promise<void> {
  signedInSessions.set(request, await request.requireSession());
}

/** The one guard of the admin area: a signed-in platform admin, checked before anything is read. */
export async function platformAdmin(request: FastifyRequest): Promise<void> {
  await signedIn(request);
  if (!request.actor.isAdmin) throw new AppError('FORBIDDEN');
}

/** A route outside the guarded scopes that reads the actor is refused, never served as nobody. */
function signedInSession(request: FastifyRequest): ResolvedSession {
  const session = signedInSessions.get(request);
  if (!session) throw new AppError('UNAUTHORIZED');
  return session;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * GETs that change something (SPEC §7 names them GET): refused in a read-only view like any change.
 * The sign-in link's path comes from the product name, as its route's does.
 */
const actingGets = (productName: string) =>
  new Set(['GET /api/v1/deployments/:id/cancel-termination', `GET ${API_PREFIX}${serverSignInPath(productName)}`, 'GET /api/v1/users/:id/export']);
/** What a read-only view may still do: end itself, or sign out. */
const VIEW_AS_EXITS = new Set(['DELETE /api/v1/view-as', 'POST /api/v1/auth/signout']);

/** All a session may do while its password must be changed (a generated first-admin password). */
const PASSWORD_CHANGE_ROUTES = new Set(['GET /api/v1/auth/me', 'POST /api/v1/auth/set-password', 'POST /api/v1/auth/signout']);

/**
 * All a session may do before its address is proved: whoever registered it may be someone else,
 * so it reaches the verify screen (resend the mail, follow the link), reads what it is, signs out
 * or deletes the account, and nothing else (no company, order, invitation, passkey or second
 * factor). The owner who proves the mailbox later claims the account whole (accountClaim.ts).
 */
export const UNVERIFIED_ROUTES = new Set([
  'GET /api/v1/auth/me',
  'GET /api/v1/auth/intercom-hash',
  'POST /api/v1/auth/verify',
  'POST /api/v1/auth/verify/issue',
  'POST /api/v1/auth/signout',
  'POST /api/v1/auth/reauthenticate',
  'DELETE /api/v1/auth/me',
  'GET /api/v1/users/me/pending-order',
  'DELETE /api/v1/users/me/pending-order',
]);

/**
 * Cookie sessions and the cross-site guard: the session token lives in an httpOnly, SameSite=Lax
 * cookie (Secure behind HTTPS); state-changing requests from another site are refused.
 */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app;
  const policy: SessionPolicy = { idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS };
  const secure = config.publicUrl.startsWith('https:');
  const publicOrigin = new URL(config.publicUrl).origin;
  const cookieName = sessionCookieName(config.publicUrl);
  const actingGetRoutes = actingGets(config.PRODUCT_NAME);

  await app.register(cookie);

  const cache = new WeakMap<FastifyRequest, Promise<ResolvedSession | null>>();
  // Session rows between requests: a signed-in read costs no database round trip.
  const rows = createSessionRowCache(app.database.changes);
  app.decorateRequest('sessionToken', function (this: FastifyRequest) {
    return this.cookies[cookieName];
  });
  app.decorateRequest('session', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      const raw = this.sessionToken();
      // A portal session is valid on the portal only, a server's dashboard session at that server's address only.
      const here = this.serverHost?.deploymentId ?? null;
      pending = raw ? resolveSession(app.database.db, raw, policy, rows).then((s) => (s && s.serverId === here ? s : null)) : Promise.resolve(null);
      cache.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('requireSession', async function (this: FastifyRequest) {
    const session = await this.session();
    if (!session) throw new AppError('UNAUTHORIZED');
    const route = `${this.method} ${this.routeOptions.url ?? ''}`;
    if (session.user.mustChangePassword && !PASSWORD_CHANGE_ROUTES.has(route)) throw new AppError('PASSWORD_CHANGE_REQUIRED');
    if (!session.user.emailVerifiedAt && !UNVERIFIED_ROUTES.has(route)) throw new AppError('EMAIL_NOT_VERIFIED');
    return session;
  });

  app.decorateRequest('actor', {
    getter(this: FastifyRequest) {
      return signedInSession(this).user;
    },
  });
  app.decorateRequest('actorSession', {
    getter(this: FastifyRequest) {
      return signedInSession(this);
    },
  });

  app.decorateReply('setSessionCookie', function (this: FastifyReply, token: string) {
    return this.setCookie(cookieName, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: config.SESSION_MAX_DAYS * 86_400 });
  });
  app.decorateReply('clearSessionCookie', function (this: FastifyReply) {
    return this.clearCookie(cookieName, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  });

  // A read-only view (an admin viewing as a company's admin) changes nothing: every unsafe method,
  // and the few GETs that act, are refused before anything is read, except leaving the view.
  app.addHook('onRequest', (request, _reply, done) => {
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (!(UNSAFE.has(request.method) || actingGetRoutes.has(route)) || VIEW_AS_EXITS.has(route) || !request.sessionToken()) return done();
    request.session().then((session) => done(session?.viewAs ? new AppError('VIEW_AS_READ_ONLY') : undefined), done);
  });

  // A callback hook: it runs on every API request, and most of them are reads it lets through.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!UNSAFE.has(request.method)) return done();
    // Browsers say where a request comes from; a request without these headers is not a browser's.
    const origin = request.headers.origin;
    const crossSite =
      request.headers['sec-fetch-site'] === 'cross-site' || Boolean(origin && origin !== publicOrigin && origin !== `${request.protocol}://${request.host}`);
    done(crossSite ? new AppError('CROSS_SITE_REQUEST') : undefined);
  });
});
