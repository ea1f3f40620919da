import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authTokens } from '../db/schema';

export type TokenPurpose = (typeof authTokens.$inferSelect)['purpose'];

/** Tokens are 256 random bits; only their SHA-256 is stored, so a database leak leaks no link. */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

export function newOpaqueToken(): { raw: string; hash: string } {
  const raw = randomBytes(32).toString('base64url');
  return { raw, hash: hashToken(raw) };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Issues a token for one purpose; earlier unused tokens of that purpose stop working. */
export async function issueToken(db: Db, userId: string, purpose: TokenPurpose, ttlMinutes: number): Promise<string> {
  const { raw, hash } = newOpaqueToken();
  await db.transaction(async (tx) => {
    await tx
      .update(authTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
    await tx.insert(authTokens).values({ userId, purpose, tokenHash: hash, expiresAt: new Date(Date.now() + ttlMinutes * 60_000) });
  });
  return raw;
}

/**
 * Uses a token once: one atomic UPDATE marks it used only if it is unused and unexpired, so two
 * concurrent uses cannot both succeed. Returns the user id, or null.
 */
export async function consumeToken(db: Db, raw: string, purpose: TokenPurpose): Promise<string | null> {
  const hash = hashToken(raw);
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authTokens.tokenHash, hash), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, sql`now()`)))
    .returning({ userId: authTokens.userId, tokenHash: authTokens.tokenHash });
  return row && sameHash(row.tokenHash, hash) ? row.userId : null;
}

/** Whether a token would be accepted now, without using it (the reset page checks on load). */
export async function peekToken(db: Db, raw: string, purpose: TokenPurpose): Promise<string | null> {
  const hash = hashToken(raw);
  const [row] = await db
    .select({ userId: authTokens.userId, tokenHash: authTokens.tokenHash })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hash), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, sql`now()`)));
  return row && sameHash(row.tokenHash, hash) ? row.userId : null;
}
