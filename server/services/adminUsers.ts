import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AdminUserDetail, AdminUserRow } from '../../src/domain/admin/schemas';
import type { Db } from '../db/client';
import { auditLogs, companies, companyMembers, sessions, signinFailures, users } from '../db/schema';
import { AppError } from '../errors';
import { countUpTo, FILTER_PEEK, listAndExport, plannerEstimate, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { recordAudit, type AuditActor } from './audit';
import { releaseMemberships } from './companies';
import { deleteFile } from './files';
import { UUID } from './plans';
import type { RateCounters } from './rateCounters';
import { revokeUserSessions, type SessionUser } from './sessions';

export const USER_SORT_FIELDS = ['_id', 'email', 'firstName', 'lastName', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type UserListQuery = ListQuery<UserSortField, Record<string, never>>;

export const USER_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'email', header: 'Email' },
  { id: 'firstName', header: 'First name' },
  { id: 'lastName', header: 'Last name' },
  { id: 'isAdmin', header: 'Platform admin' },
  { id: 'emailVerified', header: 'Email verified' },
  { id: 'locked', header: 'Locked' },
  { id: 'createdAt', header: 'Created' },
] as const;

/** Sign-in events kept in the audit log and shown as a user's sign-in history. */
export const SIGN_IN_ACTIONS = ['user.signIn', 'user.signInFailed'] as const;

function toRow(u: typeof users.$inferSelect): AdminUserRow {
  return {
    _id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    isAdmin: u.isAdmin,
    emailVerified: u.emailVerifiedAt !== null,
    locked: u.lockedAt !== null,
    createdAt: u.createdAt.toISOString(),
  };
}

const usersTable = (db: Db): AdminTable<UserSortField, AdminUserRow> => ({
  sortColumns: {
    _id: { column: users.id, type: 'uuid' },
    email: { column: users.email, type: 'text' },
    firstName: { column: users.firstName, type: 'text' },
    lastName: { column: users.lastName, type: 'text' },
    createdAt: { column: users.createdAt, type: 'timestamptz' },
  },
  id: users.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({ user: users, cursor: sql<string>`${cursor}` })
      .from(users)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({ row: toRow(r.user), cursor: r.cursor, id: r.user.id }));
  },
  count: (where, cap) => countUpTo(db, users, where, cap),
  estimate: plannerEstimate(db, 'users'),
  peek: FILTER_PEEK,
});

function whereOf(query: UserListQuery): SQL | undefined {
  return and(searchOver(query.q, [users.email, users.firstName, users.lastName]), query.ids ? (query.ids.length ? inArray(users.id, query.ids) : sql`false`) : undefined);
}

/**
 * Refuses, inside the caller's transaction, to let the last platform admin go (deleted or demoted):
 * with none left, nobody could run the platform, and the next start would seed a new one. The
 * admin rows stay locked until the transaction ends, so two admins leaving at once cannot both pass.
 */
export async function keepAPlatformAdmin(tx: Db, leavingUserId: string): Promise<void> {
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).for('update');
  if (admins.some((a) => a.id === leavingUserId) && admins.length <= 1) throw new AppError('LAST_PLATFORM_ADMIN');
}

/**
 * Grants or removes the platform admin role (for the admin area's user edit). An admin cannot
 * demote themselves (another admin must), and the last admin is never demoted.
 */
export async function setPlatformAdmin(db: Db, actor: AuditActor, targetId: string, isAdmin: boolean): Promise<void> {
  if (!isAdmin && actor.id === targetId) throw new AppError('CANNOT_DEMOTE_SELF');
  await db.transaction(async (tx) => {
    if (!isAdmin) await keepAPlatformAdmin(tx, targetId);
    const [before] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, targetId)).for('update');
    if (!before) throw new AppError('NOT_FOUND');
    if (before.isAdmin === isAdmin) return;
    await tx.update(users).set({ isAdmin, updatedAt: sql`now()` }).where(eq(users.id, targetId));
    await recordAudit(tx, { actor, action: isAdmin ? 'user.grantAdmin' : 'user.revokeAdmin', targetType: 'user', targetId, before, after: { isAdmin } });
  });
}

/** The user row, locked for the transaction; an unknown or malformed id is 404. */
async function lockUser(tx: Db, userId: string) {
  if (!UUID.test(userId)) throw new AppError('NOT_FOUND');
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;

export interface AdminUserDeps {
  db: Db;
  counters: RateCounters;
  /** The verification mail, as the user's own resend sends it (auth service). */
  sendVerification(user: SessionUser): Promise<void>;
}

/** The admin area's users: list, export, a user's page and the support actions, for platform admins. */
export function createAdminUserService({ db, counters, sendVerification }: AdminUserDeps) {
  return {
    ...listAndExport({ db, resource: 'users' }, usersTable(db), whereOf),

    /** A user's page: the row, their companies, live sessions and sign-in history. */
    async get(actor: SessionUser, input: { userId: string }): Promise<AdminUserDetail> {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.userId)) throw new AppError('NOT_FOUND');
      const [user] = await db.select().from(users).where(eq(users.id, input.userId));
      if (!user) throw new AppError('NOT_FOUND');
      const [memberOf, live, signIns] = await Promise.all([
        db
          .select({ _id: companies.id, name: companies.name, role: companyMembers.role })
          .from(companyMembers)
          .innerJoin(companies, eq(companies.id, companyMembers.companyId))
          .where(eq(companyMembers.userId, user.id))
          .orderBy(companies.name),
        db.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(desc(sessions.lastSeenAt)),
        db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, user.id), inArray(auditLogs.action, [...SIGN_IN_ACTIONS])))
          .orderBy(desc(auditLogs.at))
          .limit(50),
      ]);
      return {
        ...toRow(user),
        via: user.via,
        mfaEnabled: user.mfaEnabled,
        companies: memberOf,
        sessions: live.map((s) => ({ _id: s.id, createdAt: s.createdAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString(), ip: s.ip, userAgent: s.userAgent })),
        signIns: signIns.map((e) => ({ _id: e.id, at: e.at.toISOString(), ok: e.action === 'user.signIn', ip: e.ip })),
      };
    },

    async setPlatformAdmin(actor: SessionUser, input: { userId: string; isAdmin: boolean }) {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.userId)) throw new AppError('NOT_FOUND');
      return setPlatformAdmin(db, actor, input.userId, input.isAdmin);
    },

    /** Locks the whole account: sign-in is refused and every session ends. Never oneself. */
    async lock(actor: SessionUser, input: { userId: string }) {
      requirePlatformAdmin(actor);
      if (actor.id === input.userId) throw new AppError('CANNOT_ACT_ON_SELF');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, input.userId);
        if (user.lockedAt) return;
        await tx.update(users).set({ lockedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id);
        await recordAudit(tx, { actor, action: 'user.lock', targetType: 'user', targetId: user.id, before: { locked: false }, after: { locked: true } });
      });
    },

    /** Lifts the account lock and every per-source lockout, and gives back the sign-in budget. */
    async unlock(actor: SessionUser, input: { userId: string }) {
      requirePlatformAdmin(actor);
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, input.userId);
        await tx.update(users).set({ lockedAt: null, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await tx.delete(signinFailures).where(eq(signinFailures.userId, user.id));
        await counters.reset(tx, `signin:${user.email}`);
        await recordAudit(tx, { actor, action: 'user.unlock', targetType: 'user', targetId: user.id, before: { locked: user.lockedAt !== null }, after: { locked: false } });
      });
    },

    /** Ends every session of the user: their browsers are signed out at their next request. */
    async endSessions(actor: SessionUser, input: { userId: string }) {
      requirePlatformAdmin(actor);
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, input.userId);
        const [live] = await tx.select({ n: count() }).from(sessions).where(eq(sessions.userId, user.id));
        await revokeUserSessions(tx, user.id);
        await recordAudit(tx, { actor, action: 'user.endSessions', targetType: 'user', targetId: user.id, before: { sessions: live?.n ?? 0 }, after: { sessions: 0 } });
      });
    },

    /** The verification mail again, under the user's own 2-minute wait; refused once verified. */
    async resendVerification(actor: SessionUser, input: { userId: string }) {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.userId)) throw new AppError('NOT_FOUND');
      const [user] = await db.select().from(users).where(eq(users.id, input.userId));
      if (!user) throw new AppError('NOT_FOUND');
      if (user.emailVerifiedAt) throw new AppError('ALREADY_VERIFIED');
      // Claims the send slot first: a refusal (sent under 2 minutes ago) leaves no audit row.
      await sendVerification(user);
      await db.transaction((tx) => recordAudit(tx, { actor, action: 'user.resendVerification', targetType: 'user', targetId: user.id }));
    },

    /** Deletes the account as its owner's deletion does; never oneself, never the last platform admin. */
    async delete(actor: SessionUser, input: { userId: string }) {
      requirePlatformAdmin(actor);
      if (actor.id === input.userId) throw new AppError('CANNOT_ACT_ON_SELF');
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, input.userId);
        await keepAPlatformAdmin(tx, user.id);
        await releaseMemberships(tx, user.id);
        await tx.delete(users).where(eq(users.id, user.id));
        await deleteFile(tx, user.pictureFileId);
        await recordAudit(tx, { actor, action: 'user.delete', targetType: 'user', targetId: user.id, before: { email: user.email, firstName: user.firstName, lastName: user.lastName } });
      });
    },
  };
}
