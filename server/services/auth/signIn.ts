import { eq, sql } from 'drizzle-orm';
import type { AuthenticationResponseBody, GoogleSignInBody, SignInBody, TokenBody } from '../../../src/domain/auth/schemas';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../crypto/passwords';
import { AppError } from '../../errors';
import { takeOverUnverified } from '../accountClaim';
import { recordAudit } from '../audit';
import type { GoogleVerifier } from '../google';
import type { PasskeyService } from '../passkeys';
import type { RateCounters } from '../rateCounters';
import { refuseSuspended, type SessionUser } from '../sessions';
import { spendCredential, type SigninGuard } from '../signinGuard';
import { consumeToken } from '../tokens';
import type { UsageEventSink } from '../usageEvents';
import type { AuthKit, ClientMeta, SignedIn } from './shared';

export interface SignInDeps {
  db: Db;
  events: UsageEventSink;
  google: GoogleVerifier;
  guard: SigninGuard;
  counters: RateCounters;
  /** A passkey alone signs in: its answer is checked here. */
  passkeys: Pick<PasskeyService, 'verifyAssertion'>;
  kit: AuthKit;
}

// Spent on unknown emails so that a sign-in takes as long whether or not the account exists.
const DUMMY_HASH = hashPassword('not-a-real-password-#1A');

/**
 * Every way into a session (SPEC §4): password (with lockout and the two-factor step), passkey,
 * Google, magic link. Each method takes the client asking (its IP, device cookie, user agent) and
 * the request's input.
 */
export function createSignInService({ db, events, google, guard, counters, passkeys, kit }: SignInDeps) {
  const { accountLimit, findByEmail, startSession, auditFailedSignIn, checkSecondFactor, releaseAccount } = kit;

  /**
   * Google vouches for the address. An account nobody verified is taken over by the Google holder
   * (the first registrant's password, sessions and second factor go); a verified one signs in.
   */
  async function googleSession(user: SessionUser, authCode: string | undefined, client: ClientMeta): Promise<SignedIn> {
    if (!user.emailVerifiedAt) {
      const claimed = await db.transaction((tx) => takeOverUnverified(tx, user.id, { passwordHash: null, via: 'google' }));
      return startSession(claimed, client);
    }
    if (await guard.isLocked(user.id, client)) throw new AppError('ACCOUNT_LOCKED');
    await checkSecondFactor(user, authCode, client);
    return startSession(user, client);
  }

  /**
   * Google ID tokens work once: a token that reaches a session, or that comes with a code to
   * check, is spent, so a captured token is worth one try at most.
   */
  async function spendGoogleToken(identity: { tokenHash: string; expiresAt: Date }): Promise<void> {
    if (!(await spendCredential(db, identity.tokenHash, identity.expiresAt))) throw new AppError('GOOGLE_TOKEN_USED');
  }

  return {
    /**
     * Password sign-in. Attempts on one account from devices it does not know are limited across
     * every IP (before any hashing); its own devices are not, so a flood cannot keep the owner
     * out. 'Locked' is only said after the right password, so it reveals nothing to a guesser.
     */
    async password(client: ClientMeta, body: SignInBody): Promise<SignedIn> {
      const user = await findByEmail(body.email);
      if (!user || !guard.isTrusted(user.id, client)) await counters.hit(`signin:${body.email}`, accountLimit);
      if (!user?.passwordHash) {
        await verifyPassword(await DUMMY_HASH, body.password);
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        await guard.fail(user.id, client);
        await auditFailedSignIn(user);
        throw new AppError('INVALID_CREDENTIALS');
      }
      refuseSuspended(user);
      if (await guard.isLocked(user.id, client)) throw new AppError('ACCOUNT_LOCKED');
      await checkSecondFactor(user, body.authCode, client, body.passkey);
      return startSession(user, client);
    },

    /** A passkey alone (verified by the authenticator: two factors in one) signs in, second factor or not. */
    async passkey(client: ClientMeta, { response }: { response: AuthenticationResponseBody }): Promise<SignedIn> {
      const { user } = await passkeys.verifyAssertion(response, { userId: null, requireUserVerification: true });
      return startSession(user, client);
    },

    /** Sign-in with a Google ID token: the account must exist (sign-up makes it). */
    async google(client: ClientMeta, body: GoogleSignInBody): Promise<SignedIn> {
      const identity = await google.verify(body.idToken);
      const user = await findByEmail(identity.email);
      if (!user) throw new AppError('USER_NOT_FOUND');
      // Asking for the code does not spend the token; checking one, or signing in, does.
      if (!user.emailVerifiedAt || !user.mfaEnabled || body.authCode) await spendGoogleToken(identity);
      return googleSession(user, body.authCode, client);
    },

    /** Sign-up with a Google ID token; an existing account is signed in instead. */
    async googleSignUp(client: ClientMeta, { idToken }: { idToken: string }): Promise<SignedIn & { justSignedUp: boolean }> {
      const identity = await google.verify(idToken);
      const existing = await findByEmail(identity.email);
      if (existing && existing.emailVerifiedAt && existing.mfaEnabled) return { ...(await googleSession(existing, undefined, client)), justSignedUp: false };
      await spendGoogleToken(identity);
      if (existing) return { ...(await googleSession(existing, undefined, client)), justSignedUp: false };
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
      if (!created) return { ...(await googleSession(user, undefined, client)), justSignedUp: false };
      events.record('signupUser', { result: 'success', via: 'google' });
      return { ...(await startSession(user, client)), justSignedUp: true };
    },

    /** The link proves the mailbox: it verifies the email and releases failed-sign-in lockouts (not an administrator's lock). */
    async magicLink(client: ClientMeta, { token }: TokenBody): Promise<SignedIn> {
      const userId = await consumeToken(db, token, 'magic');
      if (!userId) throw new AppError('MAGIC_LINK_INVALID');
      const user = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
          .where(eq(users.id, userId))
          .returning();
        if (row) await releaseAccount(tx, userId);
        return row;
      });
      if (!user) throw new AppError('MAGIC_LINK_INVALID');
      if (user.mfaEnabled) throw new AppError('TWO_FACTOR_REQUIRED');
      return startSession(user, client);
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
