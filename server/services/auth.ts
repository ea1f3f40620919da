import { and, eq, sql } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { CurrentUser, GoogleSignInBody, ResetPasswordBody, SetPasswordBody, SignInBody, SignUpBody } from '../../src/domain/auth/schemas';
import type { Config } from '../config';
import { VersionedCache, type ChangeFeed } from '../db/changes';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { takeOverUnverified } from './accountClaim';
import { recordAudit } from './audit';
import { AppError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { renderMail, type MailKind } from '../mail/templates';
import { keepAPlatformAdmin } from './adminUsers';
import { listUserCompanies, releaseMemberships } from './companies';
import { deleteFile, fileUrl } from './files';
import { hashPassword, verifyPassword } from '../crypto/passwords';
import type { RateCounters } from './rateCounters';
import { createSession, markProved, revokeUserSessions, SESSION_CACHE_MS, type SessionPolicy, type SessionUser } from './sessions';
import { spendCredential, type AttemptSource, type SigninGuard } from './signinGuard';
import { consumeToken, issueToken, peekToken, type TokenPurpose } from './tokens';
import type { GoogleVerifier } from './google';
import type { TwoFactorService } from './twoFactor';
import type { PasskeyService } from './passkeys';
import type { AuthenticationResponseBody } from '../../src/domain/auth/passkeys';
import type { UsageEventSink } from './usageEvents';

export interface AuthDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  t: TFunction;
  events: UsageEventSink;
  twoFactor: TwoFactorService;
  google: GoogleVerifier;
  guard: SigninGuard;
  counters: RateCounters;
  /** Checks passkey answers: a passkey signs in alone, or stands in for the code. */
  passkeys: Pick<PasskeyService, 'verifyAssertion'>;
  /** The database's change feed: with it, `/auth/me` keeps each user's companies between calls. */
  changes?: ChangeFeed;
}

export interface ClientMeta extends AttemptSource {
  userAgent?: string;
}

/** A session token, the user it belongs to and the device cookie to keep: what sign-in style calls hand back. */
export interface SignedIn {
  token: string;
  user: CurrentUser;
  deviceCookie: string;
}

/** The session a sensitive change is asked from, with when its holder last proved who they are. */
export interface Actor {
  user: SessionUser;
  sessionId: string;
  provedAt: Date;
}


// Spent on unknown emails so that a sign-in takes as long whether or not the account exists.
const DUMMY_HASH = hashPassword('not-a-real-password-#1A');
const RESEND_WAIT_MS = 2 * 60_000;

type TokenMailKind = Extract<MailKind, 'verify' | 'reset' | 'unlock' | 'magic' | 'accountExists'>;

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
    mustChangePassword: user.mustChangePassword,
    emailVerified,
    createdAt: user.createdAt.toISOString(),
    onboarding: !emailVerified ? 'verify' : companies.length === 0 ? 'company' : null,
    companies,
  };
}

/** The account rules of SPEC §4: sign-up, sign-in with lockout, verification, reset, unlock, magic link. */
export function createAuthService({ db, config, mailer, t, events, twoFactor, google, guard, counters, passkeys, changes }: AuthDeps) {
  const policy: SessionPolicy = { idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS };
  const accountLimit = { max: config.AUTH_ACCOUNT_LIMIT_PER_15_MINUTES, windowMinutes: 15 };
  const codeLimit = { max: config.TWO_FACTOR_CHECKS_PER_15_MINUTES, windowMinutes: 15 };
  const proofWindowMs = config.REAUTH_WINDOW_MINUTES * 60_000;

  const findByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)).limit(1))[0];
  const findById = async (id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];

  const LINKS: Record<TokenMailKind, { purpose: TokenPurpose; ttl: number; link: (token: string) => string; expiry: (ttl: number) => Record<string, number> }> = {
    verify: { purpose: 'verify', ttl: config.VERIFY_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/account/verify?token=${tk}`, expiry: (m) => ({ hours: Math.round(m / 60) }) },
    reset: { purpose: 'reset', ttl: config.RESET_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/forgot-password?resetPassword=1&token=${tk}`, expiry: (m) => ({ minutes: m }) },
    unlock: { purpose: 'unlock', ttl: config.UNLOCK_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/api/v1/auth/unlock?token=${tk}`, expiry: (m) => ({ hours: Math.round(m / 60) }) },
    magic: { purpose: 'magic', ttl: config.MAGIC_LINK_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/account/magic-link?token=${tk}`, expiry: (m) => ({ minutes: m }) },
    // A second sign-up with a taken address: the owner is told, with a way back in.
    accountExists: { purpose: 'reset', ttl: config.RESET_TOKEN_TTL_MINUTES, link: (tk) => `${config.publicUrl}/#/forgot-password?resetPassword=1&token=${tk}`, expiry: (m) => ({ minutes: m }) },
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

  // Kept like session rows (db/changes.ts): each write to memberships or companies drops them all.
  const companiesCache = changes && new VersionedCache<{ _id: string; name: string }[]>(changes, SESSION_CACHE_MS);
  const companiesOf = async (userId: string) => (await listUserCompanies(db, userId)).map(({ _id, name }) => ({ _id, name }));
  const current = async (user: SessionUser) =>
    toCurrentUser(user, (companiesCache ? await companiesCache.load(user.id, () => companiesOf(user.id)) : null) ?? (await companiesOf(user.id)));

  /** A full sign-in: clears this source's failures and hands out the session and a device cookie. */
  async function startSession(user: SessionUser, meta: ClientMeta): Promise<SignedIn> {
    await guard.succeed(user.id, meta);
    // The sign-in history of the admin user page is the audit log's user.signIn rows.
    const token = await db.transaction(async (tx) => {
      const raw = await createSession(tx, user.id, policy, meta);
      await recordAudit(tx, { actor: user, action: 'user.signIn', targetType: 'user', targetId: user.id, after: { via: user.via } });
      return raw;
    });
    return { token, user: await current(user), deviceCookie: guard.issueDeviceCookie(user.id) };
  }

  /** A wrong password or code on a known account: kept for the admin's sign-in history. */
  async function auditFailedSignIn(user: SessionUser): Promise<void> {
    await db.transaction((tx) => recordAudit(tx, { actor: null, action: 'user.signInFailed', targetType: 'user', targetId: user.id }));
  }

  /**
   * Every second-factor check, whatever the path (password, Google, identity confirmation, turning
   * two-factor off): limited per account, and a wrong code counts against the source like a wrong
   * password.
   */
  async function checkCode(user: SessionUser, code: string, from: AttemptSource): Promise<boolean> {
    await counters.hit(`2fa:${user.id}`, codeLimit);
    if (await twoFactor.verify(user, code)) return true;
    await guard.fail(user.id, from);
    return false;
  }

  async function checkSecondFactor(user: SessionUser, authCode: string | undefined, from: AttemptSource, passkey?: AuthenticationResponseBody): Promise<void> {
    if (!user.mfaEnabled) return;
    // One of the account's own passkeys stands in for the code (the password was the first factor).
    if (passkey) return void (await passkeys.verifyAssertion(passkey, { userId: user.id, requireUserVerification: false }));
    if (!authCode) throw new AppError('TWO_FACTOR_REQUIRED');
    if (!(await checkCode(user, authCode, from))) {
      await auditFailedSignIn(user);
      throw new AppError('TWO_FACTOR_FAILED');
    }
  }

  /**
   * Google vouches for the address. An account nobody verified is taken over by the Google holder
   * (the first registrant's password, sessions and second factor go); a verified one signs in.
   */
  async function googleSession(user: SessionUser, authCode: string | undefined, meta: ClientMeta): Promise<SignedIn> {
    if (!user.emailVerifiedAt) {
      const claimed = await db.transaction((tx) => takeOverUnverified(tx, user.id, { passwordHash: null, via: 'google' }));
      return startSession(claimed, meta);
    }
    if (await guard.isLocked(user.id, meta)) throw new AppError('ACCOUNT_LOCKED');
    await checkSecondFactor(user, authCode, meta);
    return startSession(user, meta);
  }

  /**
   * Google ID tokens work once: a token that reaches a session, or that comes with a code to
   * check, is spent, so a captured token is worth one try at most.
   */
  async function spendGoogleToken(identity: { tokenHash: string; expiresAt: Date }): Promise<void> {
    if (!(await spendCredential(db, identity.tokenHash, identity.expiresAt))) throw new AppError('GOOGLE_TOKEN_USED');
  }

  /**
   * A proof of the mailbox (unlock link, magic link, password reset) releases every locked source
   * and gives the account its sign-in budget back, so the owner always gets in.
   */
  async function releaseAccount(tx: Db, userId: string): Promise<void> {
    await guard.releaseAll(tx, userId);
    const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (row) await counters.reset(tx, `signin:${row.email}`);
  }

  /** A sensitive change needs a proof of identity from this session within the last few minutes. */
  function requireFreshProof(actor: Actor): void {
    if (Date.now() - actor.provedAt.getTime() > proofWindowMs) throw new AppError('REAUTH_REQUIRED');
  }

  return {
    /**
     * Answers the same whether or not the address has an account, so sign-up tells nobody who
     * is registered: a new account gets the verification mail (its link signs in), a taken
     * address gets a mail to its owner instead. Neither answer signs anybody in.
     */
    async signUp(body: SignUpBody): Promise<void> {
      events.record('signupBegin', { via: 'local' });
      // Hashed either way, so both answers take as long.
      const passwordHash = await hashPassword(body.password);
      const user = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ email: body.email, firstName: body.firstName, lastName: body.lastName, passwordHash, verificationSentAt: new Date(), pendingOrder: body.pendingOrder ?? null })
          .onConflictDoNothing()
          .returning();
        if (row) await recordAudit(tx, { actor: row, action: 'user.signUp', targetType: 'user', targetId: row.id, after: { email: row.email, via: 'local' } });
        return row;
      });
      if (user) {
        events.record('signupUser', { result: 'success', via: 'local' });
        mailLater(user, 'verify');
        return;
      }
      events.record('signupUser', { result: 'failure', via: 'local', code: 'EMAIL_TAKEN' });
      mailLater(await findByEmail(body.email), 'accountExists');
    },

    /**
     * Password sign-in. Attempts on one account from devices it does not know are limited across
     * every IP (before any hashing); its own devices are not, so a flood cannot keep the owner
     * out. 'Locked' is only said after the right password, so it reveals nothing to a guesser.
     */
    async signIn(body: SignInBody, meta: ClientMeta): Promise<SignedIn> {
      const user = await findByEmail(body.email);
      if (!user || !guard.isTrusted(user.id, meta)) await counters.hit(`signin:${body.email}`, accountLimit);
      if (!user?.passwordHash) {
        await verifyPassword(await DUMMY_HASH, body.password);
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        await guard.fail(user.id, meta);
        await auditFailedSignIn(user);
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (user.lockedAt || (await guard.isLocked(user.id, meta))) throw new AppError('ACCOUNT_LOCKED');
      await checkSecondFactor(user, body.authCode, meta, body.passkey);
      return startSession(user, meta);
    },

    /** A passkey alone (verified by the authenticator: two factors in one) signs in, second factor or not. */
    async signInWithPasskey(response: AuthenticationResponseBody, meta: ClientMeta): Promise<SignedIn> {
      const { user } = await passkeys.verifyAssertion(response, { userId: null, requireUserVerification: true });
      if (user.lockedAt) throw new AppError('ACCOUNT_LOCKED');
      return startSession(user, meta);
    },

    /** Sign-in with a Google ID token: the account must exist (sign-up makes it). */
    async googleSignIn(body: GoogleSignInBody, meta: ClientMeta): Promise<SignedIn> {
      const identity = await google.verify(body.idToken);
      const user = await findByEmail(identity.email);
      if (!user) throw new AppError('USER_NOT_FOUND');
      // Asking for the code does not spend the token; checking one, or signing in, does.
      if (!user.emailVerifiedAt || !user.mfaEnabled || body.authCode) await spendGoogleToken(identity);
      return googleSession(user, body.authCode, meta);
    },

    /** Sign-up with a Google ID token; an existing account is signed in instead. */
    async googleSignUp(idToken: string, meta: ClientMeta): Promise<SignedIn & { justSignedUp: boolean }> {
      const identity = await google.verify(idToken);
      const existing = await findByEmail(identity.email);
      if (existing && existing.emailVerifiedAt && existing.mfaEnabled) return { ...(await googleSession(existing, undefined, meta)), justSignedUp: false };
      await spendGoogleToken(identity);
      if (existing) return { ...(await googleSession(existing, undefined, meta)), justSignedUp: false };
      events.record('signupBegin', { via: 'google' });
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ email: identity.email, firstName: identity.firstName, lastName: identity.lastName, via: 'google', passwordHash: null, emailVerifiedAt: new Date() })
          .onConflictDoNothing()
          .returning();
        if (row) await recordAudit(tx, { actor: row, action: 'user.signUp', targetType: 'user', targetId: row.id, after: { email: row.email, via: 'google' } });
        return row;
      });
      // Lost a race with another sign-up of the same address: sign that account in.
      const user = created ?? (await findByEmail(identity.email));
      if (!user) throw new Error('google sign-up found no user');
      if (!created) return { ...(await googleSession(user, undefined, meta)), justSignedUp: false };
      events.record('signupUser', { result: 'success', via: 'google' });
      return { ...(await startSession(user, meta)), justSignedUp: true };
    },

    /**
     * The link proves the mailbox, so it signs in a browser that has no session yet, unless the
     * account has a second factor: then the address is verified and the code is asked at sign-in.
     */
    async verifyEmail(token: string, meta: ClientMeta, signedInAs: string | null): Promise<{ user: CurrentUser | null; session: SignedIn | null }> {
      const userId = await consumeToken(db, token, 'verify');
      if (!userId) throw new AppError('TOKEN_INVALID');
      const user = await db.transaction(async (tx) => {
        const [was] = await tx.select({ verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('update');
        const [row] = await tx.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, userId)).returning();
        if (row && !was?.verifiedAt) await recordAudit(tx, { actor: row, action: 'user.verify', targetType: 'user', targetId: row.id, before: { emailVerified: false }, after: { emailVerified: true } });
        return row;
      });
      if (!user) throw new AppError('TOKEN_INVALID');
      if (signedInAs === user.id) return { user: await current(user), session: null };
      if (user.mfaEnabled || signedInAs) return { user: null, session: null };
      const session = await startSession(user, meta);
      return { user: session.user, session };
    },

    async resendVerification(user: SessionUser): Promise<void> {
      if (user.emailVerifiedAt) return;
      // Claim the slot in one statement, so two quick clicks send one mail.
      const [claimed] = await db
        .update(users)
        .set({ verificationSentAt: sql`now()` })
        .where(and(eq(users.id, user.id), sql`(${users.verificationSentAt} is null or ${users.verificationSentAt} < now() - make_interval(secs => ${RESEND_WAIT_MS / 1000}))`))
        .returning();
      if (!claimed) throw new AppError('VERIFICATION_ALREADY_SENT');
      await mailLink(claimed, 'verify');
    },

    async forgotPassword(email: string): Promise<void> {
      mailLater(await findByEmail(email), 'reset');
    },

    async checkResetToken(token: string): Promise<void> {
      if (!(await peekToken(db, token, 'reset'))) throw new AppError('TOKEN_INVALID');
    },

    /** A reset also releases a lockout and ends every session of the user. */
    async resetPassword(body: ResetPasswordBody): Promise<void> {
      if (!(await peekToken(db, body.token, 'reset'))) throw new AppError('TOKEN_INVALID');
      const passwordHash = await hashPassword(body.password);
      const userId = await consumeToken(db, body.token, 'reset');
      if (!userId) throw new AppError('TOKEN_INVALID');
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ verified: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('update');
        // The link proves the mailbox: an account nobody verified is claimed whole by its holder.
        if (user && !user.verified) await takeOverUnverified(tx, userId, { passwordHash });
        else await tx.update(users).set({ passwordHash, lockedAt: null, mustChangePassword: false, updatedAt: sql`now()` }).where(eq(users.id, userId));
        await revokeUserSessions(tx, userId);
        await releaseAccount(tx, userId);
        const [actor] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
        await recordAudit(tx, { actor: actor ?? null, action: 'user.passwordReset', targetType: 'user', targetId: userId });
      });
    },

    async requestUnlock(email: string): Promise<void> {
      const user = await findByEmail(email);
      mailLater(user && (user.lockedAt || (await guard.hasLocks(user.id))) ? user : undefined, 'unlock');
    },

    /** The unlock link releases every locked source of the account. */
    async unlock(token: string): Promise<boolean> {
      const userId = await consumeToken(db, token, 'unlock');
      if (!userId) return false;
      await db.transaction(async (tx) => {
        const [row] = await tx.update(users).set({ lockedAt: null }).where(eq(users.id, userId)).returning();
        await releaseAccount(tx, userId);
        if (row) await recordAudit(tx, { actor: row, action: 'user.unlock', targetType: 'user', targetId: userId, after: { locked: false } });
      });
      return true;
    },

    async requestMagicLink(email: string): Promise<void> {
      mailLater(await findByEmail(email), 'magic');
    },

    /** The link proves the mailbox: it verifies the email and releases a lockout too. */
    async signInWithMagicLink(token: string, meta: ClientMeta): Promise<SignedIn> {
      const userId = await consumeToken(db, token, 'magic');
      if (!userId) throw new AppError('MAGIC_LINK_INVALID');
      const user = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ lockedAt: null, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
          .where(eq(users.id, userId))
          .returning();
        if (row) await releaseAccount(tx, userId);
        return row;
      });
      if (!user) throw new AppError('MAGIC_LINK_INVALID');
      if (user.mfaEnabled) throw new AppError('TWO_FACTOR_REQUIRED');
      return startSession(user, meta);
    },

    /** Changing the password ends every session, this one included (SPEC §4: logs the user out). */
    async setPassword(actor: Actor, body: SetPasswordBody): Promise<void> {
      const { user } = actor;
      // The old password proves who is asking; adding a first one needs a recent proof instead.
      if (!user.passwordHash) requireFreshProof(actor);
      else if (!(body.oldPassword && (await verifyPassword(user.passwordHash, body.oldPassword)))) {
        throw new AppError('WRONG_PASSWORD', { fieldErrors: { oldPassword: ['errors.wrongPassword'] } });
      }
      if (body.oldPassword === body.password) throw new AppError('SAME_PASSWORD', { fieldErrors: { password: ['errors.samePassword'] } });
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id);
        await recordAudit(tx, { actor: user, action: user.passwordHash ? 'user.passwordChange' : 'user.passwordSet', targetType: 'user', targetId: user.id });
      });
    },

    async deleteAccount(actor: Actor, password: string | undefined): Promise<void> {
      const { user } = actor;
      if (!user.passwordHash) requireFreshProof(actor);
      else if (!(password && (await verifyPassword(user.passwordHash, password)))) {
        throw new AppError('WRONG_PASSWORD', { fieldErrors: { password: ['errors.wrongPassword'] } });
      }
      // Sessions, tokens and memberships go with the user (ON DELETE CASCADE); the picture too.
      await db.transaction(async (tx) => {
        await keepAPlatformAdmin(tx, user.id);
        await releaseMemberships(tx, user.id);
        await tx.delete(users).where(eq(users.id, user.id));
        await deleteFile(tx, user.pictureFileId);
        await recordAudit(tx, { actor: user, action: 'user.delete', targetType: 'user', targetId: user.id, before: { email: user.email, firstName: user.firstName, lastName: user.lastName } });
      });
    },

    /** The signed-in user as GET /auth/me shows them, from the row the session lookup already read. */
    currentUser: (user: SessionUser): Promise<CurrentUser> => current(user),

    /**
     * Proves who holds this session again (password, or a code for an account without one), so
     * sensitive changes may follow for a few minutes. Failures count like failed sign-ins.
     */
    async reauthenticate(actor: Actor, proof: { password?: string; code?: string }, from: AttemptSource): Promise<void> {
      const { user } = actor;
      let proved = false;
      if (proof.password !== undefined) {
        if (!user.passwordHash) throw new AppError('WRONG_PASSWORD', { fieldErrors: { password: ['errors.wrongPassword'] } });
        await counters.hit(`reauth:${user.id}`, accountLimit);
        proved = await verifyPassword(user.passwordHash, proof.password);
        if (!proved) await guard.fail(user.id, from);
        if (!proved) throw new AppError('WRONG_PASSWORD', { fieldErrors: { password: ['errors.wrongPassword'] } });
      } else if (proof.code !== undefined) {
        proved = user.mfaEnabled && (await checkCode(user, proof.code, from));
        if (!proved) throw new AppError('TWO_FACTOR_CODE_WRONG', { fieldErrors: { code: ['errors.TWO_FACTOR_CODE_WRONG'] } });
      }
      if (!proved) throw AppError.validation({ password: ['validation.required'] });
      await markProved(db, actor.sessionId);
    },

    /** Starting (or restarting) two-factor set-up replaces the second factor: it needs a fresh proof. */
    async initiateTwoFactor(actor: Actor) {
      requireFreshProof(actor);
      return twoFactor.initiate(actor.user);
    },

    async enableTwoFactor(actor: Actor, code: string) {
      requireFreshProof(actor);
      // Its own budget: setting up checks a code of the new secret, not the sign-in one.
      await counters.hit(`2fa-setup:${actor.user.id}`, codeLimit);
      return twoFactor.enable(actor.user, code);
    },

    /** A current code (or recovery code) is itself the proof; it is checked under the same limits as at sign-in. */
    async disableTwoFactor(actor: Actor, code: string, from: AttemptSource): Promise<void> {
      if (!actor.user.mfaEnabled || !(await checkCode(actor.user, code, from))) throw new AppError('TWO_FACTOR_CODE_WRONG', { fieldErrors: { code: ['errors.TWO_FACTOR_CODE_WRONG'] } });
      await twoFactor.turnOff(actor.user);
    },

    async me(userId: string): Promise<CurrentUser | null> {
      const user = await findById(userId);
      return user ? current(user) : null;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
