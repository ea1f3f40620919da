import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authTokens, passkeyChallenges, passkeys, recoveryCodes, users } from '../db/schema';
import { revokeUserSessions, type SessionUser } from './sessions';

/**
 * An account nobody has proved the address of can be claimed by whoever proves it (a password
 * reset, an invitation link, Google): every way in the first registrant set up goes (sessions,
 * password, second factor, recovery codes, passkeys and their pending challenges, mailed links),
 * so they keep none. An administrator's lock stays: proving a mailbox never lifts it.
 */
export async function takeOverUnverified(tx: Db, userId: string, changes: { passwordHash: string | null; firstName?: string; lastName?: string; via?: 'local' | 'google' }): Promise<SessionUser> {
  await revokeUserSessions(tx, userId);
  await tx.delete(authTokens).where(and(eq(authTokens.userId, userId), isNull(authTokens.usedAt)));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
  const [user] = await tx
    .update(users)
    .set({
      ...changes,
      totpSecret: null,
      totpPendingSecret: null,
      totpLastStep: null,
      mfaEnabled: false,
      emailVerifiedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw new Error('takeover found no user');
  return user;
}
