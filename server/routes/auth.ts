import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  currentUserSchema,
  deleteMeSchema,
  emailOnlySchema,
  googleSignInSchema,
  googleSignUpAnswerSchema,
  googleSignUpSchema,
  reauthenticateSchema,
  recoveryCodesSchema,
  resetPasswordSchema,
  setPasswordSchema,
  signInSchema,
  tokenBodySchema,
  tokenSchema,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorSetupSchema,
  unlockQuerySchema,
} from '../../src/domain/auth/schemas';
import { passkeySignInSchema } from '../../src/domain/auth/passkeys';
import { AppError } from '../errors';
import type { SignedIn } from '../services/auth/shared';
import { errorReplies, noPayload, ok, replies } from './envelope';

/**
 * Marks a browser that completed a sign-in to an account: its failures never lock out the others.
 * Scoped to the auth routes; on https `__Secure-` (not `__Host-`, which would force path /).
 */
const DEVICE_COOKIE_DAYS = 365;
const deviceCookieName = (publicUrl: string) => (publicUrl.startsWith('https:') ? '__Secure-beacon_device' : 'beacon_device');

/** What both auth scopes share: rate limits, the device cookie, the client's metadata. */
function authContext(app: FastifyInstance) {
  const { config } = app;
  const perIp = { config: { rateLimit: { max: config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } } };
  const perIpRelaxed = { config: { rateLimit: { max: 120, timeWindow: 60_000 } } };
  const tags = ['auth'];
  const noBody = z.object({}).loose().nullish().describe('No body');
  /**
   * Mails per account and action (reset, unlock, magic link), counted in the database so every
   * process agrees; each action has its own budget, so using one never uses up another.
   */
  const limitMails = (action: string) => async (email: string) => app.counters.hit(`mail:${action}:${email}`, { max: config.AUTH_ACCOUNT_LIMIT_PER_15_MINUTES, windowMinutes: 15 });
  const limitReset = limitMails('reset');
  const limitUnlock = limitMails('unlock');
  const limitMagic = limitMails('magic');

  // A new token at every sign-in: a cookie planted before sign-in is worth nothing after it.
  const rotateSession = async (request: FastifyRequest) => {
    const previous = request.sessionToken();
    if (previous) await app.sessions.revoke(previous);
  };

  const secure = config.publicUrl.startsWith('https:');
  const DEVICE_COOKIE = deviceCookieName(config.publicUrl);
  const meta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'], device: request.cookies[DEVICE_COOKIE] });
  const startSession = async (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    await rotateSession(request);
    reply.setSessionCookie(signedIn.token);
    reply.setCookie(DEVICE_COOKIE, signedIn.deviceCookie, { httpOnly: true, sameSite: 'lax', secure, path: '/api/v1/auth', maxAge: DEVICE_COOKIE_DAYS * 86_400 });
  };
  return { config, perIp, perIpRelaxed, tags, noBody, limitReset, limitUnlock, limitMagic, meta, startSession };
}

/**
 * Signing in, up and back (SPEC §7 Auth, public scope). Every one is rate limited per IP before its
 * handler runs, and the ones naming an account also per account, so no password is hashed for a
 * refused request.
 */
export const authPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const { signIn, recovery, account } = app;
  const { config, perIp, perIpRelaxed, tags, noBody, limitReset, limitUnlock, limitMagic, meta, startSession } = authContext(app);

  app.post('/auth/signin', { ...perIp, schema: { tags, body: signInSchema, response: replies(currentUserSchema) } }, async (request, reply) => {
    const signedIn = await signIn.password(meta(request), request.body);
    await startSession(request, reply, signedIn);
    return ok(signedIn.user);
  });

  // A passkey alone: the options come from POST /auth/passkeys/signin/options.
  app.post('/auth/passkeys/signin', { ...perIp, schema: { tags, body: passkeySignInSchema, response: replies(currentUserSchema) } }, async (request, reply) => {
    const signedIn = await signIn.passkey(meta(request), request.body);
    await startSession(request, reply, signedIn);
    return ok(signedIn.user);
  });

  app.post('/auth/google-signin', { ...perIp, schema: { tags, body: googleSignInSchema, response: replies(currentUserSchema) } }, async (request, reply) => {
    const signedIn = await signIn.google(meta(request), request.body);
    await startSession(request, reply, signedIn);
    return ok(signedIn.user);
  });

  app.post('/auth/google-signup', { ...perIp, schema: { tags, body: googleSignUpSchema, response: { ...replies(googleSignUpAnswerSchema), ...replies(googleSignUpAnswerSchema, 201) } } }, async (request, reply) => {
    const signedIn = await signIn.googleSignUp(meta(request), request.body);
    await startSession(request, reply, signedIn);
    return reply.status(signedIn.justSignedUp ? 201 : 200).send(ok({ ...signedIn.user, justSignedUp: signedIn.justSignedUp }));
  });

  app.post('/auth/signout', { ...perIpRelaxed, schema: { tags, body: noBody, response: replies(noPayload) } }, async (request, reply) => {
    const raw = request.sessionToken();
    if (raw) await app.sessions.revoke(raw);
    reply.clearSessionCookie();
    return ok(null);
  });

  app.post('/auth/verify', { ...perIp, schema: { tags, body: tokenBodySchema, response: replies(currentUserSchema.nullable()) } }, async (request, reply) => {
    const session = await request.session();
    const result = await account.verifyEmail({ ...meta(request), signedInAs: session?.user.id ?? null }, request.body);
    if (result.session) await startSession(request, reply, result.session);
    // null: verified, but the account's second factor (or another signed-in account) asks for a sign-in.
    return ok(result.user);
  });

  app.post('/auth/forgot-password', { ...perIp, schema: { tags, body: emailOnlySchema, response: replies(noPayload) } }, async (request) => {
    await limitReset(request.body.email);
    await recovery.forgotPassword(request.body);
    return ok(null);
  });

  app.post('/auth/verify/reset-token', { ...perIp, schema: { tags, body: tokenBodySchema, response: replies(noPayload) } }, async (request) => {
    await recovery.checkResetToken(request.body);
    return ok(null);
  });

  app.post('/auth/reset-password', { ...perIp, schema: { tags, body: resetPasswordSchema, response: replies(noPayload) } }, async (request, reply) => {
    await recovery.resetPassword(request.body);
    reply.clearSessionCookie();
    return ok(null);
  });

  app.post('/auth/request-unlock', { ...perIp, schema: { tags, body: emailOnlySchema, response: replies(noPayload) } }, async (request) => {
    await limitUnlock(request.body.email);
    await recovery.requestUnlock(request.body);
    return ok(null);
  });

  // The unlock mail's link: a plain GET from the mail client, answered with a redirect to sign-in.
  app.get('/auth/unlock', { ...perIp, schema: { tags, querystring: unlockQuerySchema, response: { 303: z.null().describe('Redirect to the sign-in page, saying whether the device was unlocked'), ...errorReplies } } }, async (request, reply) => {
    const parsed = z.object({ token: tokenSchema }).safeParse(request.query);
    const unlocked = parsed.success && (await recovery.unlock(parsed.data));
    return reply.redirect(`${config.publicUrl}/#/account/signin?ref=${unlocked ? 'unlocked' : 'unlock-failed'}`, 303);
  });

  app.post('/auth/magic-link', { ...perIp, schema: { tags, body: emailOnlySchema, response: replies(noPayload) } }, async (request) => {
    await limitMagic(request.body.email);
    await recovery.requestMagicLink(request.body);
    return ok(null);
  });

  app.post('/auth/signin/magic-link', { ...perIp, schema: { tags, body: tokenBodySchema, response: replies(currentUserSchema) } }, async (request, reply) => {
    const signedIn = await signIn.magicLink(meta(request), request.body);
    await startSession(request, reply, signedIn);
    return ok(signedIn.user);
  });
};

/** The signed-in account (SPEC §7 Auth, customer scope): me, verification, password, two-factor, deletion. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account, twoFactorSettings } = app;
  const { config, perIp, perIpRelaxed, tags, noBody, meta } = authContext(app);

  // A hot read that never audits: no request context (see app.ts).
  app.get('/auth/me', { ...perIpRelaxed, config: { ...perIpRelaxed.config, requestContext: false }, schema: { tags, response: replies(currentUserSchema) } }, async (request) => {
    const { user, viewAs } = request.actorSession;
    const current = await account.currentUser(user);
    return ok(viewAs ? { ...current, viewAs: { adminEmail: viewAs.admin.email, companyId: viewAs.companyId } } : current);
  });

  // The support chat's identity hash, so the chat can trust who the user says they are.
  app.get('/auth/intercom-hash', { ...perIpRelaxed, schema: { tags, response: replies(z.object({ hash: z.string() })) } }, async (request) => {
    const user = request.actor;
    if (!config.INTERCOM_SECRET) throw new AppError('NOT_FOUND');
    return ok({ hash: createHmac('sha256', config.INTERCOM_SECRET).update(user.id).digest('hex') });
  });

  app.post('/auth/verify/issue', { ...perIp, schema: { tags, body: noBody, response: replies(noPayload) } }, async (request) => {
    const user = request.actor;
    await account.resendVerification(user);
    return ok(null);
  });

  app.post('/auth/set-password', { ...perIp, schema: { tags, body: setPasswordSchema, response: replies(noPayload) } }, async (request, reply) => {
    const actor = request.actorSession;
    await account.setPassword(actor, request.body);
    reply.clearSessionCookie();
    return ok(null);
  });

  // Confirms the session holder's identity again before a sensitive change (REAUTH_REQUIRED).
  app.post('/auth/reauthenticate', { ...perIp, schema: { tags, body: reauthenticateSchema, response: replies(noPayload) } }, async (request) => {
    const actor = request.actorSession;
    await account.reauthenticate(actor, { ...request.body, from: meta(request) });
    return ok(null);
  });

  app.post('/auth/2fa/initiate', { ...perIp, schema: { tags, body: noBody, response: replies(twoFactorSetupSchema) } }, async (request) => {
    const actor = request.actorSession;
    return ok(await twoFactorSettings.initiate(actor));
  });

  app.post('/auth/2fa/enable', { ...perIp, schema: { tags, body: twoFactorCodeSchema, response: replies(recoveryCodesSchema) } }, async (request) => {
    const actor = request.actorSession;
    return ok(await twoFactorSettings.enable(actor, request.body));
  });

  app.post('/auth/2fa/disable', { ...perIp, schema: { tags, body: twoFactorDisableSchema, response: replies(noPayload) } }, async (request) => {
    const actor = request.actorSession;
    await twoFactorSettings.disable(actor, { code: request.body.code, from: meta(request) });
    return ok(null);
  });

  app.delete('/auth/me', { ...perIp, schema: { tags, body: deleteMeSchema.nullish(), response: replies(noPayload) } }, async (request, reply) => {
    const actor = request.actorSession;
    await account.deleteAccount(actor, { password: request.body?.password });
    reply.clearSessionCookie();
    return ok(null);
  });
};
