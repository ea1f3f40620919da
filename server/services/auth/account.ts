import { and, eq, sql } from 'drizzle-orm';
import type { SignUpWithOrderBody } from '../../../src/domain/orders/schemas';
import type { CurrentUser, DeleteMeBody, ReauthenticateBody, SetPasswordBody, TokenBody } from '../../../src/domain/auth/schemas';
import { hashPassword, verifyPassword } from '../../crypto/passwords';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { keepAPlatformAdmin } from '../adminUsers';
import { recordAudit } from '../audit';
import { releaseMemberships } from '../companies';
import { deleteFile } from '../files';
import type { RateCounters } from '../rateCounters';
import { markProved, revokeUserSessions, type SessionUser } from '../sessions';
import type { AttemptSource, SigninGuard } from '../signinGuard';
import { consumeToken } from '../tokens';
import type { UsageEventSink } from '../usageEvents';
import type { Actor, AuthKit, ClientMeta, SignedIn } from './shared';

export interface AccountDeps {
  db: Db;
  events: UsageEventSink;
  guard: Pick<SigninGuard, 'fail'>;
  counters: RateCounters;
  kit: AuthKit;
}

const RESEND_WAIT_MS = 2 * 60_000;
const wrongPassword = (field: 'oldPassword' | 'password') => new AppError('WRONG_PASSWORD', { fieldErrors: { [field]: ['errors.wrongPassword'] } });

/**
 * The account itself (SPEC §4): sign-up and verification, the signed-in user, re-authentication,
 * the password, deletion. Methods of the signed-in account take the session (`Actor`) first.
 */
export function createAccountService({ db, events, guard, counters, kit }: AccountDeps) {
  const { accountLimit, findByEmail, findById, mailLink, mailLater, current, startSession, checkCode, requireFreshProof } = kit;

  return {
    /**
     * Answers the same whether or not the address has an account, so sign-up tells nobody who
     * is registered: a new account gets the verification mail (its link signs in), a taken
     * address gets a mail to its owner instead. Neither answer signs anybody in.
     */
    async signUp(body: SignUpWithOrderBody): Promise<void> {
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
     * The link proves the mailbox, so it signs in a browser that has no session yet, unless the
     * account has a second factor: then the address is verified and the code is asked at sign-in.
     * `signedInAs` is the account of the browser's session, if it has one.
     */
    async verifyEmail(client: ClientMeta & { signedInAs: string | null }, { token }: TokenBody): Promise<{ user: CurrentUser | null; session: SignedIn | null }> {
      const userId = await consumeToken(db, token, 'verify');
      if (!userId) throw new AppError('TOKEN_INVALID');
      const user = await db.transaction(async (tx) => {
        const [was] = await tx.select({ verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('update');
        const [row] = await tx.update(users).set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, userId)).returning();
        if (row && !was?.verifiedAt) await recordAudit(tx, { actor: row, action: 'user.verify', targetType: 'user', targetId: row.id, before: { emailVerified: false }, after: { emailVerified: true } });
        return row;
      });
      if (!user) throw new AppError('TOKEN_INVALID');
      const { signedInAs, ...meta } = client;
      if (signedInAs === user.id) return { user: await current(user), session: null };
      if (user.mfaEnabled || signedInAs) return { user: null, session: null };
      const session = await startSession(user, meta);
      return { user: session.user, session };
    },

    async resendVerification(actor: SessionUser): Promise<void> {
      if (actor.emailVerifiedAt) return;
      // Claim the slot in one statement, so two quick clicks send one mail.
      const [claimed] = await db
        .update(users)
        .set({ verificationSentAt: sql`now()` })
        .where(and(eq(users.id, actor.id), sql`(${users.verificationSentAt} is null or ${users.verificationSentAt} < now() - make_interval(secs => ${RESEND_WAIT_MS / 1000}))`))
        .returning();
      if (!claimed) throw new AppError('VERIFICATION_ALREADY_SENT');
      await mailLink(claimed, 'verify');
    },

    /** Changing the password ends every session, this one included (SPEC §4: logs the user out). */
    async setPassword(actor: Actor, body: SetPasswordBody): Promise<void> {
      const { user } = actor;
      // The old password proves who is asking; adding a first one needs a recent proof instead.
      if (!user.passwordHash) requireFreshProof(actor);
      else if (!(body.oldPassword && (await verifyPassword(user.passwordHash, body.oldPassword)))) throw wrongPassword('oldPassword');
      if (body.oldPassword === body.password) throw new AppError('SAME_PASSWORD', { fieldErrors: { password: ['errors.samePassword'] } });
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id);
        await recordAudit(tx, { actor: user, action: user.passwordHash ? 'user.passwordChange' : 'user.passwordSet', targetType: 'user', targetId: user.id });
      });
    },

    async deleteAccount(actor: Actor, { password }: DeleteMeBody): Promise<void> {
      const { user } = actor;
      if (!user.passwordHash) requireFreshProof(actor);
      else if (!(password && (await verifyPassword(user.passwordHash, password)))) throw wrongPassword('password');
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
    currentUser: (actor: SessionUser): Promise<CurrentUser> => current(actor),

    /** The user read afresh, e.g. after a profile update. */
    async me(actor: { id: string }): Promise<CurrentUser | null> {
      const user = await findById(actor.id);
      return user ? current(user) : null;
    },

    /**
     * Proves who holds this session again (password, or a code for an account without one), so
     * sensitive changes may follow for a few minutes. Failures count like failed sign-ins.
     */
    async reauthenticate(actor: Actor, { from, ...proof }: ReauthenticateBody & { from: AttemptSource }): Promise<void> {
      const { user } = actor;
      let proved = false;
      if (proof.password !== undefined) {
        if (!user.passwordHash) throw wrongPassword('password');
        await counters.hit(`reauth:${user.id}`, accountLimit);
        proved = await verifyPassword(user.passwordHash, proof.password);
        if (!proved) await guard.fail(user.id, from);
        if (!proved) throw wrongPassword('password');
      } else if (proof.code !== undefined) {
        proved = user.mfaEnabled && (await checkCode(user, proof.code, from));
        if (!proved) throw new AppError('TWO_FACTOR_CODE_WRONG', { fieldErrors: { code: ['errors.TWO_FACTOR_CODE_WRONG'] } });
      }
      if (!proved) throw AppError.validation({ password: ['validation.required'] });
      await markProved(db, actor.sessionId);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
