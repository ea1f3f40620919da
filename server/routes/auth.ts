import { createHmac } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deleteMeSchema, emailOnlySchema, googleSignInSchema, googleSignUpSchema, resetPasswordSchema, setPasswordSchema, signInSchema, tokenBodySchema, tokenSchema, twoFactorCodeSchema, twoFactorDisableSchema } from '../../src/domain/schemas/auth';
import { AppError } from '../errors';
import { SESSION_COOKIE } from '../plugins/session';
import { revokeSession } from '../services/sessions';
import { ok } from './envelope';

const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/**
 * Account routes (SPEC §7 Auth). Every one is rate limited per IP before its handler runs, and the
 * ones naming an account also per account, so no password is hashed for a refused request.
 */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const { auth, config } = app;
  const perIp = { config: { rateLimit: { max: config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };
  const perIpRelaxed = { config: { rateLimit: { max: 120, timeWindow: 60_000 } } };
  const accountLimit = app.createRateLimit({
    max: config.AUTH_ACCOUNT_LIMIT_PER_15_MINUTES,
    timeWindow: 15 * 60_000,
    keyGenerator: (request) => `account:${String((request.body as { email?: unknown } | null)?.email ?? '').trim().toLowerCase()}`,
  });
  const limitAccount = async (request: FastifyRequest) => {
    const result = await accountLimit(request);
    // `isAllowed` only reports the allow-list; `isExceeded` says whether the limit is passed.
    if (!result.isAllowed && result.isExceeded) throw new AppError('RATE_LIMITED', 429, 'errors.RATE_LIMITED', undefined, { after: `${result.ttlInSeconds} seconds` });
  };

  // A new token at every sign-in: a cookie planted before sign-in is worth nothing after it.
  const rotateSession = async (request: FastifyRequest) => {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await revokeSession(app.database.db, previous);
  };

  app.get('/auth/me', perIpRelaxed, async (request) => {
    const { user } = await request.requireSession();
    return ok(await auth.currentUser(user));
  });

  app.post('/auth/signin', perIp, async (request, reply) => {
    const body = signInSchema.parse(request.body);
    await limitAccount(request);
    const signedIn = await auth.signIn(body, meta(request));
    await rotateSession(request);
    reply.setSessionCookie(signedIn.token);
    return ok(signedIn.user);
  });

  app.post('/auth/google-signin', perIp, async (request, reply) => {
    const body = googleSignInSchema.parse(request.body);
    const signedIn = await auth.googleSignIn(body, meta(request));
    await rotateSession(request);
    reply.setSessionCookie(signedIn.token);
    return ok(signedIn.user);
  });

  app.post('/auth/google-signup', perIp, async (request, reply) => {
    const { idToken } = googleSignUpSchema.parse(request.body);
    const signedIn = await auth.googleSignUp(idToken, meta(request));
    await rotateSession(request);
    reply.setSessionCookie(signedIn.token);
    return reply.status(signedIn.justSignedUp ? 201 : 200).send(ok({ ...signedIn.user, justSignedUp: signedIn.justSignedUp }));
  });

  // The support chat's identity hash, so the chat can trust who the user says they are.
  app.get('/auth/intercom-hash', perIpRelaxed, async (request) => {
    const { user } = await request.requireSession();
    if (!config.INTERCOM_SECRET) throw new AppError('NOT_FOUND', 404);
    return ok({ hash: createHmac('sha256', config.INTERCOM_SECRET).update(user.id).digest('hex') });
  });

  app.post('/auth/signout', perIpRelaxed, async (request, reply) => {
    const raw = request.cookies[SESSION_COOKIE];
    if (raw) await revokeSession(app.database.db, raw);
    reply.clearSessionCookie();
    return ok(null);
  });

  app.post('/auth/verify', perIp, async (request, reply) => {
    const { token } = tokenBodySchema.parse(request.body);
    const session = await request.session();
    const result = await auth.verifyEmail(token, meta(request), session !== null);
    if (result.token) reply.setSessionCookie(result.token);
    return ok(result.user);
  });

  app.post('/auth/verify/issue', perIp, async (request) => {
    const { user } = await request.requireSession();
    await auth.resendVerification(user);
    return ok(null);
  });

  app.post('/auth/forgot-password', perIp, async (request) => {
    const { email } = emailOnlySchema.parse(request.body);
    await limitAccount(request);
    await auth.forgotPassword(email);
    return ok(null);
  });

  app.post('/auth/verify/reset-token', perIp, async (request) => {
    const { token } = tokenBodySchema.parse(request.body);
    await auth.checkResetToken(token);
    return ok(null);
  });

  app.post('/auth/reset-password', perIp, async (request, reply) => {
    const body = resetPasswordSchema.parse(request.body);
    await auth.resetPassword(body);
    reply.clearSessionCookie();
    return ok(null);
  });

  app.post('/auth/request-unlock', perIp, async (request) => {
    const { email } = emailOnlySchema.parse(request.body);
    await limitAccount(request);
    await auth.requestUnlock(email);
    return ok(null);
  });

  // The unlock mail's link: a plain GET from the mail client, answered with a redirect to sign-in.
  app.get('/auth/unlock', perIp, async (request, reply) => {
    const parsed = z.object({ token: tokenSchema }).safeParse(request.query);
    const unlocked = parsed.success && (await auth.unlock(parsed.data.token));
    return reply.redirect(`${config.publicUrl}/#/account/signin?ref=${unlocked ? 'unlocked' : 'unlock-failed'}`, 303);
  });

  app.post('/auth/magic-link', perIp, async (request) => {
    const { email } = emailOnlySchema.parse(request.body);
    await limitAccount(request);
    await auth.requestMagicLink(email);
    return ok(null);
  });

  app.post('/auth/signin/magic-link', perIp, async (request, reply) => {
    const { token } = tokenBodySchema.parse(request.body);
    const signedIn = await auth.signInWithMagicLink(token, meta(request));
    reply.setSessionCookie(signedIn.token);
    return ok(signedIn.user);
  });

  app.post('/auth/set-password', perIp, async (request, reply) => {
    const { user } = await request.requireSession();
    const body = setPasswordSchema.parse(request.body);
    await auth.setPassword(user, body);
    reply.clearSessionCookie();
    return ok(null);
  });

  app.post('/auth/2fa/initiate', perIp, async (request) => {
    const { user } = await request.requireSession();
    return ok(await app.twoFactor.initiate(user));
  });

  app.post('/auth/2fa/enable', perIp, async (request) => {
    const { user } = await request.requireSession();
    const { code } = twoFactorCodeSchema.parse(request.body);
    return ok(await app.twoFactor.enable(user, code));
  });

  app.post('/auth/2fa/disable', perIp, async (request) => {
    const { user } = await request.requireSession();
    const { code } = twoFactorDisableSchema.parse(request.body);
    await app.twoFactor.disable(user, code);
    return ok(null);
  });

  app.delete('/auth/me', perIp, async (request, reply) => {
    const { user } = await request.requireSession();
    const { password } = deleteMeSchema.parse(request.body ?? {});
    await auth.deleteAccount(user, password);
    reply.clearSessionCookie();
    return ok(null);
  });
};
