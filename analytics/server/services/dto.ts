import { eq, inArray } from 'drizzle-orm';
import type { AppDto, MemberDto } from '../../domain/schemas';
import type { Db } from '../../../server/db/client';
import { analyticsAppMembers, analyticsMembers } from '../../../server/db/schema';
import { canAdmin, type Access, type App, type Member } from './access';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The apps as the applications screen shows them, with their creator, global admins, admins and
 * users. The checksum salt is a secret of the app's admins: null for anyone else.
 */
export async function appDtos(tx: Db, access: Access, apps: App[]): Promise<AppDto[]> {
  if (apps.length === 0) return [];
  const { tenantId } = access;
  const members = await tx.select().from(analyticsMembers).where(eq(analyticsMembers.tenantId, tenantId));
  const byId = new Map(members.map((m) => [m.id, m]));
  const ref = (m: Member) => ({ _id: m.id, fullName: m.fullName });
  const roles = await tx.select().from(analyticsAppMembers).where(inArray(analyticsAppMembers.appId, apps.map((a) => a.id)));
  const globalAdmins = members.filter((m) => m.globalAdmin).map(ref);
  return apps.map((a) => {
    const of = (role: 'admin' | 'user') => roles.flatMap((r) => (r.appId === a.id && r.role === role && byId.has(r.memberId) ? [ref(byId.get(r.memberId) as Member)] : []));
    const creator = a.createdBy ? byId.get(a.createdBy) : undefined;
    return {
      _id: a.id,
      name: a.name,
      type: a.type,
      category: a.category,
      key: a.key,
      timezone: a.timezone,
      iconFileId: a.iconFileId,
      checksumSalt: canAdmin(access, a.id) ? a.checksumSalt : null,
      createdBy: creator ? ref(creator) : null,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
      lastDataAt: iso(a.lastDataAt),
      locked: a.locked,
      limits: a.limits,
      globalAdmins,
      admins: of('admin'),
      users: of('user'),
    };
  });
}

export async function memberDtos(tx: Db, members: Member[]): Promise<MemberDto[]> {
  if (members.length === 0) return [];
  const roles = await tx.select().from(analyticsAppMembers).where(inArray(analyticsAppMembers.memberId, members.map((m) => m.id)));
  return members.map((m) => ({
    _id: m.id,
    userId: m.userId,
    fullName: m.fullName,
    username: m.username,
    email: m.email,
    globalAdmin: m.globalAdmin,
    locked: m.locked,
    bannedUntil: iso(m.bannedUntil),
    lastLoginAt: iso(m.lastLoginAt),
    createdAt: m.createdAt.toISOString(),
    hasApiKey: m.apiKeyHash !== null,
    adminOf: roles.filter((r) => r.memberId === m.id && r.role === 'admin').map((r) => r.appId),
    userOf: roles.filter((r) => r.memberId === m.id && r.role === 'user').map((r) => r.appId),
  }));
}
