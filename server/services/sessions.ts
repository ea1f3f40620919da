import { and, eq, ne, sql } from 'drizzle-orm';
import { VersionedCache, type ChangeFeed } from '../db/changes';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { AppError } from '../errors';
import { hashToken, newOpaqueToken } from './tokens';

export interface SessionPolicy {
  idleMinutes: number;
  maxDays: number;
}

export type SessionUser = typeof users.$inferSelect;
/**
 * An administrator's lock on the account (`users.locked_at`), apart from the per-source lockouts
 * of failed sign-ins: it refuses every new session, and no mailbox link (unlock, magic link,
 * reset) lifts it, only an administrator.
 */
export function refuseSuspended(user: Pick<SessionUser, 'lockedAt'>): void {
  if (user.lockedAt) throw new AppError('ACCOUNT_SUSPENDED');
}

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
  /** A dashboard session at a server's own address: the server it is valid for (null: a portal session). */
  serverId: string | null;
}

/**
 * How long a session row (and the user's companies) may be answered from memory. Writes made
 * through this process drop them at once (db/changes.ts); this bounds how long a change made by
 * another process on the same PostgreSQL (a sign-out, a revocation) can go unseen here.
 */
export const SESSION_CACHE_MS = 2_000;

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

/**
 * A session at a server's own address, made from a signed sign-in link: valid only there, for that
 * server's dashboard. The link makes one session: used again, it is refused (`linkHash` is unique).
 */
export async function createServerSession(db: Db, input: { userId: string; serverId: string; linkHash: string }, policy: SessionPolicy, meta: { ip?: string; userAgent?: string }): Promise<string | null> {
  const { raw, hash } = newOpaqueToken();
  const made = await db
    .insert(sessions)
    .values({ userId: input.userId, serverId: input.serverId, signInLinkHash: input.linkHash, tokenHash: hash, expiresAt: new Date(Date.now() + policy.maxDays * 86_400_000), ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 300) ?? null })
    .onConflictDoNothing({ target: sessions.signInLinkHash })
    .returning({ id: sessions.id });
  return made.length ? raw : null;
}

type SessionRow = { session: typeof sessions.$inferSelect; user: SessionUser };
/** Session rows by token hash, kept between requests (see plugins/session.ts). */
export type SessionRowCache = VersionedCache<SessionRow>;
export const createSessionRowCache = (changes: ChangeFeed): SessionRowCache => new VersionedCache<SessionRow>(changes, SESSION_CACHE_MS);

async function readSessionRow(db: Db, tokenHash: string): Promise<SessionRow | null> {
  const [row] = await db.select({ session: sessions, user: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * The live session a cookie names: unexpired, not idle too long. Expired ones are deleted. With a
 * cache, the row may come from memory: it is the database's row as long as no write to sessions,
 * users or memberships happened since (changes.ts), so a revocation ends it at once.
 */
export async function resolveSession(db: Db, raw: string, policy: SessionPolicy, cache?: SessionRowCache): Promise<ResolvedSession | null> {
  const tokenHash = hashToken(raw);
  const row = cache ? await cache.load(tokenHash, () => readSessionRow(db, tokenHash)) : await readSessionRow(db, tokenHash);
  if (!row) return null;
  const now = Date.now();
  const idleFor = now - row.session.lastSeenAt.getTime();
  if (row.session.expiresAt.getTime() <= now || idleFor > policy.idleMinutes * 60_000) {
    cache?.forget(tokenHash);
    await db.delete(sessions).where(eq(sessions.id, row.session.id));
    return null;
  }
  if (idleFor > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, row.session.id));
    // The kept row follows the touch (the touch itself is not a change readers must see).
    row.session.lastSeenAt = new Date(now);
  }
  const { viewAsUserId, viewAsCompanyId } = row.session;
  // Only a platform admin may view as someone; a revoked admin's view simply ends.
  if (viewAsUserId && viewAsCompanyId && row.user.isAdmin) {
    const [target] = await db.select().from(users).where(eq(users.id, viewAsUserId));
    if (target) {
      return {
        sessionId: row.session.id,
        user: { ...target, isAdmin: false, mustChangePassword: false },
        provedAt: new Date(0),
        viewAs: { admin: { ...row.user }, companyId: viewAsCompanyId },
        serverId: null,
      };
    }
  }
  // A copy: callers may not change the kept row.
  return { sessionId: row.session.id, user: { ...row.user }, provedAt: row.session.provedAt, serverId: row.session.serverId };
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

export type SessionService = ReturnType<typeof createSessionService>;

/** The session calls routes make themselves (signing out, replacing a session on sign-in). */
export function createSessionService(deps: { db: Db }) {
  const { db } = deps;
  return {
    revoke: (raw: string): Promise<void> => revokeSession(db, raw),
  };
}
