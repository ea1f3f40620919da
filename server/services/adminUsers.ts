import { and, asc, count, desc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit, type AuditActor } from './audit';
import type { ExportValue } from './exportStream';
import type { SessionUser } from './sessions';

export const USER_SORT_FIELDS = ['_id', 'email', 'firstName', 'lastName', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

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

const SORT_COLUMNS = { _id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, createdAt: users.createdAt } as const;

export interface UserListQuery {
  sort: [UserSortField, 'ASC' | 'DESC'];
  q?: string;
}

function search(q?: string): SQL | undefined {
  if (!q?.trim()) return undefined;
  const like = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(ilike(users.email, like), ilike(users.firstName, like), ilike(users.lastName, like));
}

/** A user as the admin list and export show it. */
export interface AdminUserRow extends Record<string, ExportValue> {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  emailVerified: boolean;
  locked: boolean;
  createdAt: string;
}

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

/** One page of users for the admin list, with the total for Content-Range. */
export async function listUsers(db: Db, query: UserListQuery, range: [number, number]) {
  const where = search(query.q);
  const [field, order] = query.sort;
  const column = SORT_COLUMNS[field];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(order === 'ASC' ? asc(column) : desc(column), asc(users.id))
      .limit(range[1] - range[0] + 1)
      .offset(range[0]),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows: rows.map(toRow), total: total?.n ?? 0 };
}

/**
 * Every user the query matches, in batches read by keyset (sort value, id): each batch is one
 * short query, however deep into the list, and the database never holds a long transaction.
 */
// How a cursor value, carried as text, is read back: exact for every type, microseconds included.
const SQL_TYPES: Record<UserSortField, string> = { _id: 'uuid', email: 'text', firstName: 'text', lastName: 'text', createdAt: 'timestamptz' };

/**
 * Every user the query matches, in batches read by keyset (sort value, id): each batch is one
 * short query, however deep into the list, and the database never holds a long transaction.
 */
export async function* exportUsers(db: Db, query: UserListQuery, batchSize = 1000): AsyncGenerator<AdminUserRow[]> {
  const [field, order] = query.sort;
  const column = SORT_COLUMNS[field];
  const where = search(query.q);
  const type = sql.raw(SQL_TYPES[field]);
  let after: { value: string; id: string } | null = null;
  for (;;) {
    let cmp: SQL | undefined;
    if (after) {
      const value = sql`cast(${after.value} as ${type})`;
      cmp = order === 'ASC' ? sql`(${column}, ${users.id}) > (${value}, ${after.id}::uuid)` : or(sql`${column} < ${value}`, and(sql`${column} = ${value}`, gt(users.id, after.id)));
    }
    const rows: { user: typeof users.$inferSelect; cursor: string }[] = await db
      .select({ user: users, cursor: sql<string>`${column}::text` })
      .from(users)
      .where(and(where, cmp))
      .orderBy(order === 'ASC' ? asc(column) : desc(column), asc(users.id))
      .limit(batchSize);
    if (!rows.length) return;
    yield rows.map((r) => toRow(r.user));
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { value: last.cursor, id: last.user.id };
  }
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

/** Platform admins only: the admin scope checks it too, the service does not rely on that. */
function requirePlatformAdmin(actor: SessionUser) {
  if (!actor.isAdmin) throw new AppError('FORBIDDEN');
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;

/** The admin area's users: list, export and the platform admin role, for platform admins. */
export function createAdminUserService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async list(actor: SessionUser, input: { query: UserListQuery; range: [number, number] }) {
      requirePlatformAdmin(actor);
      return listUsers(db, input.query, input.range);
    },
    export(actor: SessionUser, input: { query: UserListQuery }) {
      requirePlatformAdmin(actor);
      return exportUsers(db, input.query);
    },
    async setPlatformAdmin(actor: SessionUser, input: { userId: string; isAdmin: boolean }) {
      requirePlatformAdmin(actor);
      return setPlatformAdmin(db, actor, input.userId, input.isAdmin);
    },
  };
}
