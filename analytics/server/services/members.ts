import { randomInt } from 'node:crypto';
import { and, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { MemberCandidate, MemberDto, MemberInput, MemberUpdate, PasswordChange } from '../../domain/schemas';
import { hashPassword, verifyPassword } from '../../../server/crypto/passwords';
import type { Db } from '../../../server/db/client';
import { analyticsAppMembers, analyticsMembers, companyMembers, users } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { recordAudit } from '../../../server/services/audit';
import { companyRoleOf, requireGlobalAdmin, requireSessionActor, sha256, type Access, type Member } from './access';
import { setAppRoles } from './apps';
import { memberDtos } from './dto';
import { memberFields } from './tenants';
import { ACCESS_LEVELS } from '../../../src/domain/companies/access';

async function memberOf(tx: Db, access: Access, memberId: string): Promise<Member> {
  const [member] = await tx.select().from(analyticsMembers).where(and(eq(analyticsMembers.id, memberId), eq(analyticsMembers.tenantId, access.tenantId)));
  if (!member) throw new AppError('ANALYTICS_MEMBER_NOT_FOUND');
  return member;
}

async function otherGlobalAdmins(tx: Db, access: Access, memberId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(analyticsMembers)
    .where(and(eq(analyticsMembers.tenantId, access.tenantId), eq(analyticsMembers.globalAdmin, true), eq(analyticsMembers.locked, false), ne(analyticsMembers.id, memberId)));
  return row?.n ?? 0;
}

async function appCount(tx: Db, memberId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(analyticsAppMembers).where(eq(analyticsAppMembers.memberId, memberId));
  return row?.n ?? 0;
}

/**
 * The company's admins own the server: no dashboard user may lock them out of its dashboard, ban
 * them or take their global admin (a user removed from the company could otherwise lock out the owners).
 */
async function protectOwner(tx: Db, access: Access, userId: string, change: Pick<MemberUpdate, 'globalAdmin' | 'locked' | 'bannedUntil'>): Promise<void> {
  const shutsOut = change.globalAdmin === false || change.locked === true || (!!change.bannedUntil && new Date(change.bannedUntil) > new Date());
  if (shutsOut && (await companyRoleOf(tx, access.companyId, userId)) === 'admin') throw new AppError('ANALYTICS_OWNER_PROTECTED');
}

export async function listMembers(tx: Db, access: Access): Promise<MemberDto[]> {
  requireGlobalAdmin(access);
  return memberDtos(tx, await tx.select().from(analyticsMembers).where(eq(analyticsMembers.tenantId, access.tenantId)).orderBy(analyticsMembers.fullName));
}

/** One dashboard user, for a global admin. */
export async function getMember(tx: Db, access: Access, memberId: string): Promise<MemberDto> {
  requireGlobalAdmin(access);
  const [dto] = await memberDtos(tx, await tx.select().from(analyticsMembers).where(and(eq(analyticsMembers.tenantId, access.tenantId), eq(analyticsMembers.id, memberId))));
  if (!dto) throw new AppError('ANALYTICS_MEMBER_NOT_FOUND');
  return dto;
}

/** The users of the company owning the server who may see servers (not the billing role) and are not dashboard users yet, for a global admin to add. */
export async function listCandidates(tx: Db, access: Access): Promise<MemberCandidate[]> {
  requireGlobalAdmin(access);
  const rows = await tx
    .select({ userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .leftJoin(analyticsMembers, and(eq(analyticsMembers.tenantId, access.tenantId), eq(analyticsMembers.userId, users.id)))
    .where(and(eq(companyMembers.companyId, access.companyId), inArray(companyMembers.role, [...ACCESS_LEVELS.servers]), isNull(analyticsMembers.id)))
    .orderBy(users.email);
  return rows.map((r) => ({ userId: r.userId, email: r.email, fullName: `${r.firstName} ${r.lastName}`.trim() || r.email }));
}

export async function me(tx: Db, access: Access): Promise<MemberDto> {
  const [dto] = await memberDtos(tx, [access.member]);
  return dto as MemberDto;
}

/** Adds a user of the company that owns the server; one who is not a global admin needs an app. */
export async function addMember(tx: Db, access: Access, input: MemberInput): Promise<MemberDto> {
  requireGlobalAdmin(access);
  const [user] = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, access.companyId), eq(companyMembers.userId, input.userId), inArray(companyMembers.role, [...ACCESS_LEVELS.servers])));
  if (!user) throw new AppError('ANALYTICS_NOT_COMPANY_USER', { fieldErrors: { userId: ['errors.ANALYTICS_NOT_COMPANY_USER'] } });
  if (!input.globalAdmin && input.adminOf.length + input.userOf.length === 0) throw new AppError('ANALYTICS_MEMBER_NEEDS_APP');
  await protectOwner(tx, access, user.id, input);
  const [member] = await tx
    .insert(analyticsMembers)
    .values({ tenantId: access.tenantId, globalAdmin: input.globalAdmin, locked: input.locked ?? false, bannedUntil: input.bannedUntil ? new Date(input.bannedUntil) : null, ...memberFields(user) })
    .onConflictDoNothing()
    .returning();
  if (!member) throw new AppError('ALREADY_MEMBER');
  await setAppRoles(tx, access, member.id, input.adminOf, input.userOf);
  await recordAudit(tx, { actor: access.audit, action: 'analyticsMember.create', targetType: 'analyticsMember', targetId: member.id, companyId: access.companyId, after: { userId: user.id, globalAdmin: input.globalAdmin, adminOf: input.adminOf, userOf: input.userOf } });
  const [dto] = await memberDtos(tx, [member]);
  return dto as MemberDto;
}

export async function updateMember(tx: Db, access: Access, memberId: string, input: MemberUpdate): Promise<MemberDto> {
  requireGlobalAdmin(access);
  const member = await memberOf(tx, access, memberId);
  await protectOwner(tx, access, member.userId, input);
  const losesGlobal = member.globalAdmin && (input.globalAdmin === false || input.locked === true);
  if (losesGlobal && (await otherGlobalAdmins(tx, access, member.id)) === 0) throw new AppError('ANALYTICS_LAST_GLOBAL_ADMIN');
  // Only the fields sent change (a partial update): with none of these, the row is left alone.
  const changes = {
    ...(input.globalAdmin !== undefined ? { globalAdmin: input.globalAdmin } : {}),
    ...(input.locked !== undefined ? { locked: input.locked } : {}),
    ...(input.bannedUntil !== undefined ? { bannedUntil: input.bannedUntil ? new Date(input.bannedUntil) : null } : {}),
  };
  const [updated] = Object.keys(changes).length ? await tx.update(analyticsMembers).set(changes).where(eq(analyticsMembers.id, member.id)).returning() : [member];
  if (input.adminOf !== undefined || input.userOf !== undefined) {
    const [current] = await memberDtos(tx, [member]);
    await setAppRoles(tx, access, member.id, input.adminOf ?? current?.adminOf ?? [], input.userOf ?? current?.userOf ?? []);
  }
  if (!(updated ?? member).globalAdmin && (await appCount(tx, member.id)) === 0) throw new AppError('ANALYTICS_MEMBER_NEEDS_APP');
  await recordAudit(tx, { actor: access.audit, action: 'analyticsMember.update', targetType: 'analyticsMember', targetId: member.id, companyId: access.companyId, before: { globalAdmin: member.globalAdmin, locked: member.locked }, after: input });
  const [dto] = await memberDtos(tx, [updated ?? member]);
  return dto as MemberDto;
}

/** Only a global admin removes users (so only one removes a global admin); the last global admin and the company's admins stay. */
export async function removeMember(tx: Db, access: Access, memberId: string): Promise<void> {
  requireGlobalAdmin(access);
  const member = await memberOf(tx, access, memberId);
  if (member.globalAdmin && (await otherGlobalAdmins(tx, access, member.id)) === 0) throw new AppError('ANALYTICS_LAST_GLOBAL_ADMIN');
  // Removing an owner would take their API key and tokens with them: as good as a lock-out.
  if ((await companyRoleOf(tx, access.companyId, member.userId)) === 'admin') throw new AppError('ANALYTICS_OWNER_PROTECTED');
  await tx.delete(analyticsMembers).where(eq(analyticsMembers.id, member.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsMember.remove', targetType: 'analyticsMember', targetId: member.id, companyId: access.companyId, before: { userId: member.userId, globalAdmin: member.globalAdmin } });
}

/** User settings: the new password twice, the old one when there is one, and a different one. */
export async function changePassword(tx: Db, access: Access, input: PasswordChange): Promise<void> {
  requireSessionActor(access);
  if (input.newPassword !== input.confirmation) throw new AppError('ANALYTICS_PASSWORDS_DO_NOT_MATCH', { fieldErrors: { confirmation: ['errors.ANALYTICS_PASSWORDS_DO_NOT_MATCH'] } });
  const hash = access.member.passwordHash;
  if (hash) {
    if (!input.oldPassword || !(await verifyPassword(hash, input.oldPassword))) throw new AppError('ANALYTICS_WRONG_PASSWORD', { fieldErrors: { oldPassword: ['errors.ANALYTICS_WRONG_PASSWORD'] } });
    if (input.oldPassword === input.newPassword) throw new AppError('ANALYTICS_SAME_PASSWORD', { fieldErrors: { newPassword: ['errors.ANALYTICS_SAME_PASSWORD'] } });
  }
  await tx.update(analyticsMembers).set({ passwordHash: await hashPassword(input.newPassword) }).where(eq(analyticsMembers.id, access.member.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsMember.password', targetType: 'analyticsMember', targetId: access.member.id, companyId: access.companyId });
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new random API key for the member (32 letters and digits, SPEC §5), stored hashed and answered
 * once. Never chosen by the customer: a chosen key could be tried against other users' keys.
 */
export async function regenerateApiKey(tx: Db, access: Access): Promise<{ apiKey: string }> {
  requireSessionActor(access);
  const key = Array.from({ length: 32 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
  await tx.update(analyticsMembers).set({ apiKeyHash: sha256(key) }).where(eq(analyticsMembers.id, access.member.id));
  await recordAudit(tx, { actor: access.audit, action: 'analyticsMember.apiKey', targetType: 'analyticsMember', targetId: access.member.id, companyId: access.companyId });
  return { apiKey: key };
}
