import { eq } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { CurrentUser } from '../../../src/domain/auth/schemas';
import type { AuthenticationResponseBody } from '../../../src/domain/auth/passkeys';
import type { Config } from '../../config';
import { VersionedCache, type ChangeFeed } from '../../db/changes';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import { renderMail, type MailKind } from '../../mail/templates';
import { recordAudit } from '../audit';
import { listUserCompanies } from '../companies';
import { fileUrl } from '../files';
import type { PasskeyService } from '../passkeys';
import type { RateCounters } from '../rateCounters';
import { createSession, refuseSuspended, SESSION_CACHE_MS, type SessionPolicy, type SessionUser } from '../sessions';
import type { AttemptSource, SigninGuard } from '../signinGuard';
import { issueToken, type TokenPurpose } from '../tokens';
import type { TwoFactorService } from '../twoFactor';

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

export interface AuthKitDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  t: TFunction;
  twoFactor: TwoFactorService;
  guard: SigninGuard;
  counters: RateCounters;
  /** Checks passkey answers: a passkey stands in for the code at a password sign-in. */
  passkeys: Pick<PasskeyService, 'verifyAssertion'>;
  /** The database's change feed: `/auth/me` keeps each user's companies between calls. */
  changes: ChangeFeed;
}

type TokenMailKind = Extract<MailKind, 'verify' | 'reset' | 'unlock' | 'magic' | 'accountExists'>;

export function toCurrentUser(user: SessionUser, companies: CurrentUser['companies']): CurrentUser {
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

/**
 * What the sign-in, recovery, account and two-factor services share (SPEC §4): mailed links,
 * starting a session, the second-factor check, releasing a lockout. Built once in the composition
 * root, so the companies cache behind `/auth/me` is one for all of them.
 */
export function createAuthKit({ db, config, mailer, t, twoFactor, guard, counters, passkeys, changes }: AuthKitDeps) {
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
  const companiesCache = new VersionedCache<CurrentUser['companies']>(changes, SESSION_CACHE_MS);
  const companiesOf = async (userId: string) => (await listUserCompanies(db, userId)).map(({ _id, name, role }) => ({ _id, name, role }));
  const current = async (user: SessionUser) => toCurrentUser(user, (await companiesCache.load(user.id, () => companiesOf(user.id))) ?? (await companiesOf(user.id)));

  /** A full sign-in: clears this source's failures and hands out the session and a device cookie. */
  async function startSession(user: SessionUser, meta: ClientMeta): Promise<SignedIn> {
    // Every way in ends here, so an administrator's lock holds on all of them.
    refuseSuspended(user);
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

  /** The sign-in's two-factor step: a code, or one of the account's own passkeys in its place. */
  async function checkSecondFactor(user: SessionUser, authCode: string | undefined, from: AttemptSource, passkey?: AuthenticationResponseBody): Promise<void> {
    if (!user.mfaEnabled) return;
    // The password was the first factor, so the passkey need not verify the user again.
    if (passkey) return void (await passkeys.verifyAssertion(passkey, { userId: user.id, requireUserVerification: false }));
    if (!authCode) throw new AppError('TWO_FACTOR_REQUIRED');
    if (!(await checkCode(user, authCode, from))) {
      await auditFailedSignIn(user);
      throw new AppError('TWO_FACTOR_FAILED');
    }
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

  return { accountLimit, codeLimit, findByEmail, findById, mailLink, mailLater, current, startSession, auditFailedSignIn, checkCode, checkSecondFactor, releaseAccount, requireFreshProof };
}

export type AuthKit = ReturnType<typeof createAuthKit>;
