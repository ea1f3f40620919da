import type { MemberDto } from '../../domain/schemas';

export type AppRole = 'none' | 'admin' | 'user';

/** SPEC §6's dashboard role of a user: global admin, admin (of at least one app) or user. */
export function roleOf(member: Pick<MemberDto, 'globalAdmin' | 'adminOf'>): 'globalAdmin' | 'admin' | 'user' {
  if (member.globalAdmin) return 'globalAdmin';
  return member.adminOf.length ? 'admin' : 'user';
}

/** Per-app roles as the form edits them, from and to the adminOf / userOf lists. */
export function rolesByApp(member: Pick<MemberDto, 'adminOf' | 'userOf'>): Record<string, AppRole> {
  const roles: Record<string, AppRole> = {};
  for (const id of member.userOf) roles[id] = 'user';
  for (const id of member.adminOf) roles[id] = 'admin';
  return roles;
}

export function listsOf(roles: Record<string, AppRole>): { adminOf: string[]; userOf: string[] } {
  const entries = Object.entries(roles);
  return { adminOf: entries.filter(([, r]) => r === 'admin').map(([id]) => id), userOf: entries.filter(([, r]) => r === 'user').map(([id]) => id) };
}

/** SPEC §5: a user who is not a global admin belongs to at least one app, as admin or user. */
export const needsApp = (globalAdmin: boolean, roles: Record<string, AppRole>) => !globalAdmin && !Object.values(roles).some((r) => r !== 'none');
