import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { signinFailures, spentCredentials } from '../db/schema';
import type { Keyring } from './secrets';

/** Where a sign-in attempt comes from: a device that signed in to this account before, or an IP. */
export interface AttemptSource {
  ip?: string;
  /** The raw device cookie the browser sent, if any. */
  device?: string;
}

const DEVICE_PURPOSE = 'device-cookie';

/**
 * Lockout per account and source (OWASP's device cookies): failures are counted for the device
 * that makes them, or for its IP address when the device has never signed in to the account.
 * A source that reaches the threshold is locked for that account only; the owner's own devices and
 * other networks keep working, and the unlock mail or a password reset releases every source.
 */
export function createSigninGuard({ db, keyring, threshold }: { db: Db; keyring: Keyring; threshold: number }) {
  /** A device cookie naming this account, signed so it cannot be forged: `<userId>.<nonce>.<mac>`. */
  function issueDeviceCookie(userId: string): string {
    const payload = `${userId}.${randomBytes(12).toString('base64url')}`;
    return `${payload}.${keyring.mac(DEVICE_PURPOSE, payload)}`;
  }

  /** The device's nonce when its cookie is genuine and names this account. */
  function trustedDevice(userId: string, cookie: string | undefined): string | null {
    if (!cookie) return null;
    const parts = cookie.split('.');
    if (parts.length !== 4) return null;
    const [id, nonce, keyId, digest] = parts;
    const payload = `${id}.${nonce}`;
    return id === userId && keyring.verifyMac(DEVICE_PURPOSE, payload, `${keyId}.${digest}`) ? (nonce ?? null) : null;
  }

  const sourceKey = (userId: string, from: AttemptSource) => {
    const device = trustedDevice(userId, from.device);
    return device ? `device:${device}` : `ip:${from.ip ?? 'unknown'}`;
  };

  return {
    issueDeviceCookie,
    isTrusted: (userId: string, from: AttemptSource) => trustedDevice(userId, from.device) !== null,

    async isLocked(userId: string, from: AttemptSource): Promise<boolean> {
      const [row] = await db
        .select({ lockedAt: signinFailures.lockedAt })
        .from(signinFailures)
        .where(and(eq(signinFailures.userId, userId), eq(signinFailures.source, sourceKey(userId, from)), isNotNull(signinFailures.lockedAt)));
      return Boolean(row);
    },

    /** Counts a wrong password or code in one statement (parallel attempts cannot slip past); true when the source is now locked. */
    async fail(userId: string, from: AttemptSource): Promise<boolean> {
      const [row] = await db
        .insert(signinFailures)
        .values({ userId, source: sourceKey(userId, from), failures: 1, lockedAt: threshold <= 1 ? new Date() : null })
        .onConflictDoUpdate({
          target: [signinFailures.userId, signinFailures.source],
          set: {
            failures: sql`${signinFailures.failures} + 1`,
            lockedAt: sql`coalesce(${signinFailures.lockedAt}, case when ${signinFailures.failures} + 1 >= ${threshold} then now() else null end)`,
            updatedAt: sql`now()`,
          },
        })
        .returning({ lockedAt: signinFailures.lockedAt });
      return Boolean(row?.lockedAt);
    },

    /** A full sign-in from this source clears its count. */
    async succeed(userId: string, from: AttemptSource): Promise<void> {
      await db.delete(signinFailures).where(and(eq(signinFailures.userId, userId), eq(signinFailures.source, sourceKey(userId, from))));
    },

    /** The unlock mail, a magic link or a password reset proves the mailbox: every source is released. */
    async releaseAll(tx: Db, userId: string): Promise<void> {
      await tx.delete(signinFailures).where(eq(signinFailures.userId, userId));
    },

    async hasLocks(userId: string): Promise<boolean> {
      const [row] = await db.select({ userId: signinFailures.userId }).from(signinFailures).where(and(eq(signinFailures.userId, userId), isNotNull(signinFailures.lockedAt))).limit(1);
      return Boolean(row);
    },
  };
}

export type SigninGuard = ReturnType<typeof createSigninGuard>;

/**
 * Spends a credential that must work once (a Google ID token): true the first time its hash is
 * seen, false ever after, until it would have expired anyway.
 */
export async function spendCredential(db: Db, hash: string, expiresAt: Date): Promise<boolean> {
  if (Math.random() < 0.01) await db.delete(spentCredentials).where(lt(spentCredentials.expiresAt, sql`now()`));
  const inserted = await db.insert(spentCredentials).values({ hash, expiresAt }).onConflictDoNothing().returning({ hash: spentCredentials.hash });
  return inserted.length === 1;
}
