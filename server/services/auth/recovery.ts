import { eq, sql } from 'drizzle-orm';
import type { EmailOnlyBody, ResetPasswordBody, TokenBody } from '../../../src/domain/auth/schemas';
import { hashPassword } from '../../crypto/passwords';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { takeOverUnverified } from '../accountClaim';
import { recordAudit } from '../audit';
import { revokeUserSessions } from '../sessions';
import type { SigninGuard } from '../signinGuard';
import { consumeToken, peekToken } from '../tokens';
import type { AuthKit } from './shared';

export interface RecoveryDeps {
  db: Db;
  guard: Pick<SigninGuard, 'hasLocks'>;
  kit: AuthKit;
}

/**
 * The ways back into an account (SPEC §4): password reset, unlock, the magic link's mail. Nobody
 * is signed in; each request answers the same whether or not the address has an account.
 */
export function createRecoveryService({ db, guard, kit }: RecoveryDeps) {
  const { findByEmail, mailLater, releaseAccount } = kit;

  return {
    async forgotPassword({ email }: EmailOnlyBody): Promise<void> {
      mailLater(await findByEmail(email), 'reset');
    },

    async checkResetToken({ token }: TokenBody): Promise<void> {
      if (!(await peekToken(db, token, 'reset'))) throw new AppError('TOKEN_INVALID');
    },

    /** A reset also releases failed-sign-in lockouts (never an administrator's lock) and ends every session of the user. */
    async resetPassword(body: ResetPasswordBody): Promise<void> {
      if (!(await peekToken(db, body.token, 'reset'))) throw new AppError('TOKEN_INVALID');
      const passwordHash = await hashPassword(body.password);
      const userId = await consumeToken(db, body.token, 'reset');
      if (!userId) throw new AppError('TOKEN_INVALID');
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ verified: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('update');
        // The link proves the mailbox: an account nobody verified is claimed whole by its holder.
        if (user && !user.verified) await takeOverUnverified(tx, userId, { passwordHash });
        else await tx.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: sql`now()` }).where(eq(users.id, userId));
        await revokeUserSessions(tx, userId);
        await releaseAccount(tx, userId);
        const [actor] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
        await recordAudit(tx, { actor: actor ?? null, action: 'user.passwordReset', targetType: 'user', targetId: userId });
      });
    },

    async requestUnlock({ email }: EmailOnlyBody): Promise<void> {
      const user = await findByEmail(email);
      // Only failed-sign-in lockouts: an administrator's lock is not the mailbox's to lift.
      mailLater(user && (await guard.hasLocks(user.id)) ? user : undefined, 'unlock');
    },

    /** The unlock link releases every locked source of the account (an administrator's lock stays). */
    async unlock({ token }: TokenBody): Promise<boolean> {
      const userId = await consumeToken(db, token, 'unlock');
      if (!userId) return false;
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(users).where(eq(users.id, userId));
        await releaseAccount(tx, userId);
        if (row) await recordAudit(tx, { actor: row, action: 'user.unlock', targetType: 'user', targetId: userId, after: { locked: false } });
      });
      return true;
    },

    async requestMagicLink({ email }: EmailOnlyBody): Promise<void> {
      mailLater(await findByEmail(email), 'magic');
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
