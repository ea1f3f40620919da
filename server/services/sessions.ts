import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { hashToken, newOpaqueToken } from './tokens';

export interface SessionPolicy {
  idleMinutes: number;
  maxDays: number;
}

export type SessionUser = typeof users.$inferSelect;
export interface ResolvedSession {
  sessionId: string;
  user: SessionUser;
  /** When the holder last proved who they are: at sign-in, or by confirming their identity since. */
  provedAt: Date;
  /**
   * Set while a platform admin views the product as a company's admin: `user` is then that admin
   * (never a platform admin, never proved, so no sensitive change) and the session plugin refuses
   * every change; `admin` is who really holds the session.
   */
  viewAs?: { admin: SessionUser; companyId: string };
}

// Writing last_seen_at on every request would turn reads into writes; once a minute is enough.
const TOUCH_EVERY_MS = 60_000;

export async function createSession(db: Db, userId: string, policy: SessionPolicy, meta: { ip?: string; userAgent?: string }): Promise<string> {
  const { raw, hash } = newOpaqueToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hash,
    expiresAt: new Date(Date.now() + policy.maxDays * 86_400_000),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return raw;
}

/** The live session a cookie names: unexpired, not idle too long. Expired ones are deleted. */
export async function resolveSession(db: Db, raw: string, policy: SessionPolicy): Promise<ResolvedSession | null> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(raw)));
  if (!row) return null;
  const now = Date.now();
  const idleFor = now - row.session.lastSeenAt.getTime();
  if (row.session.expiresAt.getTime() <= now || idleFor > policy.idleMinutes * 60_000) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  if (idleFor > TOUCH_EVERY_MS) await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, row.session.id));
  const { viewAsUserId, viewAsCompanyId } = row.session;
  // Only a platform admin may view as someone; a revoked admin's view simply ends.
  if (viewAsUserId && viewAsCompanyId && row.user.isAdmin) {
    const [target] = await db.select().from(users).where(eq(users.id, viewAsUserId));
    if (target) {
      return {
        sessionId: row.session.id,
        user: { ...target, isAdmin: false, mustChangePassword: false },
        provedAt: new Date(0),
        viewAs: { admin: row.user, companyId: viewAsCompanyId },
      };
    }
  }
  return { sessionId: row.session.id, user: row.user, provedAt: row.session.provedAt };
}

export async function markProved(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ provedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Db, raw: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(raw)));
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function revokeUserSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

/** Starts or ends (null) a read-only view as another user on this session (admin companies). */
export async function setViewAs(db: Db, sessionId: string, view: { userId: string; companyId: string } | null): Promise<void> {
  await db
    .update(sessions)
    .set({ viewAsUserId: view?.userId ?? null, viewAsCompanyId: view?.companyId ?? null })
    .where(eq(sessions.id, sessionId));
}
