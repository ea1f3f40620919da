import { and, eq, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { CurrentUser, GoogleSignInBody, ResetPasswordBody, SetPasswordBody, SignInBody, SignUpBody } from '../../src/domain/schemas/auth';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail, type MailKind } from '../mail/templates';
import { listUserCompanies, releaseMemberships } from './companies';
import { deleteFile, fileUrl } from './files';
import { hashPassword, verifyPassword } from './passwords';
import { createSession, revokeUserSessions, type SessionPolicy, type SessionUser } from './sessions';
import { consumeToken, issueToken, peekToken, type TokenPurpose } from './tokens';
import type { GoogleVerifier } from './google';
import type { TwoFactorService } from './twoFactor';
import type { UsageEventSink } from './usageEvents';

export interface AuthDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  t: TFunction;
  events: UsageEventSink;
  twoFactor: TwoFactorService;
  google: GoogleVerifier;
}

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/** A session token and the user it belongs to: what sign-in style calls hand back to the route. */
export interface SignedIn {
  token: string;
  user: CurrentUser;
}

// Spent on unknown emails so that a sign-in takes as long whether or not the account exists.
const DUMMY_HASH = hashPassword('not-a-real-password-#1A');
const RESEND_WAIT_MS = 2 * 60_000;

type TokenMailKind = Extract<MailKind, 'verify' | 'reset' | 'unlock' | 'magic'>;

export function toCurrentUser(user: SessionUser, companies: { _id: string; name: string }[]): CurrentUser {
  const emailVerified = user.emailVerifiedAt !== null;
  return {
    _id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    designation: user.designation,
    picture: fileUrl(user.pictureFileId),
    via: user.via === 'google' ? 'google' : 'local',
    hasPassword: user.passwordHash !== null,
    isAdmin: user.isAdmin,
    mfaEnabled: user.mfaEnabled,
    emailVerified,
    createdAt: user.createdAt.toISOString(),
    onboarding: !emailVerified ? 'verify' : companies.length === 0 ? 'company' : null,
    companies,
  };
}

/** The account rules of SPEC §4: sign-up, sign-in with lockout, verification, reset, unlock, magic link. */
export function createAuthService({ db, config, mailer, t, events, twoFactor, google }: AuthDeps) {
  const policy: SessionPolicy = { idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS };

  const findByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)).limit(1))[0];
  const findById = async (id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];

  const LINKS: Record<TokenMailKind, { purpose: TokenPurpose; ttl: number; link: (token: string) => string; expiry: (ttl: number) => Record<string, number> }> = {
    verify: { purpose: 'verify', ttl: config.VERIFY_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/account/verify?token=${tk}`, expiry: (m) => ({ hours: Math.round(m / 60) }) },
    reset: { purpose: 'reset', ttl: config.RESET_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/forgot-password?resetPassword=1&token=${tk}`, expiry: (m) => ({ minutes: m }) },
    unlock: { purpose: 'unlock', ttl: config.UNLOCK_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/api/v1/auth/unlock?token=${tk}`, expiry: (m) => ({ hours: Math.round(m / 60) }) },
    magic: { purpose: 'magic', ttl: config.MAGIC_LINK_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/account/magic-link?token=${tk}`, expiry: (m) => ({ minutes: m }) },
  };

  /** Issues the token, then mails the link. Links use PUBLIC_URL, never the request's Host. */
  async function mailLink(user: SessionUser, kind: TokenMailKind): Promise<void> {
    const spec = LINKS[kind];
    const token = await issueToken(db, user.id, spec.purpose, spec.ttl);
    const link = spec.link(token);
    await mailer.send(user.email, renderMail(t, kind, { name: user.firstName, link, expiry: spec.expiry(spec.ttl) }), link);
  }

  /** Answers at once and mails in the background: known and unknown emails take the same time. */
  function mailLater(user: SessionUser | undefined, kind: TokenMailKind): void {
    if (user) mailer.later(() => mailLink(user, kind));
  }

  const current = async (user: SessionUser) => toCurrentUser(user, (await listUserCompanies(db, user.id)).map(({ _id, name }) => ({ _id, name })));

  async function startSession(user: SessionUser, meta: ClientMeta): Promise<SignedIn> {
    return { token: await createSession(db, user.id, policy, meta), user: await current(user) };
  }

  async function checkSecondFactor(user: SessionUser, authCode: string | undefined): Promise<void> {
    if (!user.mfaEnabled) return;
    if (!authCode) throw new AppError('TWO_FACTOR_REQUIRED', 401);
    if (!(await twoFactor.verify(user, authCode))) throw new AppError('TWO_FACTOR_FAILED', 401);
  }

  /** Google vouches for the address, so an account not yet verified counts as verified now. */
  async function googleSession(user: SessionUser, authCode: string | undefined, meta: ClientMeta): Promise<SignedIn> {
    await checkSecondFactor(user, authCode);
    const signedIn = user.emailVerifiedAt ? user : ((await db.update(users).set({ emailVerifiedAt: sql`now()` }).where(eq(users.id, user.id)).returning())[0] ?? user);
    return startSession(signedIn, meta);
  }

  return {
    async signUp(body: SignUpBody, meta: ClientMeta): Promise<SignedIn> {
      events.record('signupBegin', { via: 'local' });
      try {
        if (await findByEmail(body.email)) throw new AppError('EMAIL_TAKEN', 409);
        const passwordHash = await hashPassword(body.password);
        const [user] = await db
          .insert(users)
          .values({ email: body.email, firstName: body.firstName, lastName: body.lastName, passwordHash, verificationSentAt: new Date() })
          .onConflictDoNothing()
          .returning();
        // The unique index settles a race between two sign-ups with the same email.
        if (!user) throw new AppError('EMAIL_TAKEN', 409);
        events.record('signupUser', { result: 'success', via: 'local' });
        mailLater(user, 'verify');
        return await startSession(user, meta);
      } catch (err) {
        events.record('signupUser', { result: 'failure', via: 'local', code: err instanceof AppError ? err.code : 'INTERNAL' });
        throw err;
      }
    },

    async signIn(body: SignInBody, meta: ClientMeta): Promise<SignedIn> {
      const user = await findByEmail(body.email);
      if (!user?.passwordHash) {
        await verifyPassword(await DUMMY_HASH, body.password);
        throw new AppError('INVALID_CREDENTIALS', 401);
      }
      const passwordOk = await verifyPassword(user.passwordHash, body.password);
      if (user.lockedAt) throw new AppError('ACCOUNT_LOCKED', 423);
      if (!passwordOk) {
        // Counted in one statement, so parallel attempts cannot slip past the threshold.
        const [row] = await db
          .update(users)
          .set({
            failedSignins: sql`${users.failedSignins} + 1`,
            lockedAt: sql`case when ${users.failedSignins} + 1 >= ${config.LOCKOUT_THRESHOLD} then now() else null end`,
          })
          .where(eq(users.id, user.id))
          .returning({ lockedAt: users.lockedAt });
        throw row?.lockedAt ? new AppError('ACCOUNT_LOCKED', 423) : new AppError('INVALID_CREDENTIALS', 401);
      }
      await checkSecondFactor(user, body.authCode);
      if (user.failedSignins > 0) await db.update(users).set({ failedSignins: 0 }).where(eq(users.id, user.id));
      return startSession(user, meta);
    },

    /** Sign-in with a Google ID token: the account must exist (sign-up makes it). */
    async googleSignIn(body: GoogleSignInBody, meta: ClientMeta): Promise<SignedIn> {
      const identity = await google.verify(body.idToken);
      const user = await findByEmail(identity.email);
      if (!user) throw new AppError('USER_NOT_FOUND', 404);
      return googleSession(user, body.authCode, meta);
    },

    /** Sign-up with a Google ID token; an existing account is signed in instead. */
    async googleSignUp(idToken: string, meta: ClientMeta): Promise<SignedIn & { justSignedUp: boolean }> {
      const identity = await google.verify(idToken);
      const existing = await findByEmail(identity.email);
      if (existing) return { ...(await googleSession(existing, undefined, meta)), justSignedUp: false };
      events.record('signupBegin', { via: 'google' });
      const [created] = await db
        .insert(users)
        .values({ email: identity.email, firstName: identity.firstName, lastName: identity.lastName, via: 'google', passwordHash: null, emailVerifiedAt: new Date() })
        .onConflictDoNothing()
        .returning();
      // Lost a race with another sign-up of the same address: sign that account in.
      const user = created ?? (await findByEmail(identity.email));
      if (!user) throw new Error('google sign-up found no user');
      if (!created) return { ...(await googleSession(user, undefined, meta)), justSignedUp: false };
      events.record('signupUser', { result: 'success', via: 'google' });
      return { ...(await startSession(user, meta)), justSignedUp: true };
    },

    async verifyEmail(token: string, meta: ClientMeta, signedIn: boolean): Promise<{ user: CurrentUser; token: string | null }> {
      const userId = await consumeToken(db, token, 'verify');
      if (!userId) throw new AppError('TOKEN_INVALID', 400);
      const [user] = await db.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, userId)).returning();
      if (!user) throw new AppError('TOKEN_INVALID', 400);
      // The link proves the mailbox, so it signs in a browser that has no session yet.
      if (signedIn) return { user: await current(user), token: null };
      const session = await startSession(user, meta);
      return { user: session.user, token: session.token };
    },

    async resendVerification(user: SessionUser): Promise<void> {
      if (user.emailVerifiedAt) return;
      // Claim the slot in one statement, so two quick clicks send one mail.
      const [claimed] = await db
        .update(users)
        .set({ verificationSentAt: sql`now()` })
        .where(and(eq(users.id, user.id), sql`(${users.verificationSentAt} is null or ${users.verificationSentAt} < now() - make_interval(secs => ${RESEND_WAIT_MS / 1000}))`))
        .returning();
      if (!claimed) throw new AppError('VERIFICATION_ALREADY_SENT', 429);
      await mailLink(claimed, 'verify');
    },

    async forgotPassword(email: string): Promise<void> {
      mailLater(await findByEmail(email), 'reset');
    },

    async checkResetToken(token: string): Promise<void> {
      if (!(await peekToken(db, token, 'reset'))) throw new AppError('TOKEN_INVALID', 400);
    },

    /** A reset also releases a lockout and ends every session of the user. */
    async resetPassword(body: ResetPasswordBody): Promise<void> {
      if (!(await peekToken(db, body.token, 'reset'))) throw new AppError('TOKEN_INVALID', 400);
      const passwordHash = await hashPassword(body.password);
      const userId = await consumeToken(db, body.token, 'reset');
      if (!userId) throw new AppError('TOKEN_INVALID', 400);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, failedSignins: 0, lockedAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` }).where(eq(users.id, userId));
        await revokeUserSessions(tx, userId);
      });
    },

    async requestUnlock(email: string): Promise<void> {
      const user = await findByEmail(email);
      mailLater(user?.lockedAt ? user : undefined, 'unlock');
    },

    async unlock(token: string): Promise<boolean> {
      const userId = await consumeToken(db, token, 'unlock');
      if (!userId) return false;
      await db.update(users).set({ lockedAt: null, failedSignins: 0 }).where(eq(users.id, userId));
      return true;
    },

    async requestMagicLink(email: string): Promise<void> {
      mailLater(await findByEmail(email), 'magic');
    },

    /** The link proves the mailbox: it verifies the email and releases a lockout too. */
    async signInWithMagicLink(token: string, meta: ClientMeta): Promise<SignedIn> {
      const userId = await consumeToken(db, token, 'magic');
      if (!userId) throw new AppError('TOKEN_INVALID', 400, 'errors.magicLinkInvalid');
      const [user] = await db
        .update(users)
        .set({ lockedAt: null, failedSignins: 0, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(eq(users.id, userId))
        .returning();
      if (!user) throw new AppError('TOKEN_INVALID', 400, 'errors.magicLinkInvalid');
      if (user.mfaEnabled) throw new AppError('TWO_FACTOR_REQUIRED', 401);
      return startSession(user, meta);
    },

    /** Changing the password ends every session, this one included (SPEC §4: logs the user out). */
    async setPassword(user: SessionUser, body: SetPasswordBody): Promise<void> {
      if (user.passwordHash && !(body.oldPassword && (await verifyPassword(user.passwordHash, body.oldPassword)))) {
        throw new AppError('WRONG_PASSWORD', 400, 'errors.WRONG_PASSWORD', { oldPassword: ['errors.wrongPassword'] });
      }
      if (body.oldPassword === body.password) throw new AppError('SAME_PASSWORD', 400, 'errors.SAME_PASSWORD', { password: ['errors.samePassword'] });
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id);
      });
    },

    async deleteAccount(user: SessionUser, password: string | undefined): Promise<void> {
      if (user.passwordHash && !(password && (await verifyPassword(user.passwordHash, password)))) {
        throw new AppError('WRONG_PASSWORD', 400, 'errors.WRONG_PASSWORD', { password: ['errors.wrongPassword'] });
      }
      // Sessions, tokens and memberships go with the user (ON DELETE CASCADE); the picture too.
      await db.transaction(async (tx) => {
        await releaseMemberships(tx, user.id);
        await tx.delete(users).where(eq(users.id, user.id));
        await deleteFile(tx, user.pictureFileId);
      });
    },

    /** The signed-in user as GET /auth/me shows them, from the row the session lookup already read. */
    currentUser: (user: SessionUser): Promise<CurrentUser> => current(user),

    async me(userId: string): Promise<CurrentUser | null> {
      const user = await findById(userId);
      return user ? current(user) : null;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
