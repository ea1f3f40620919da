import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { matchesPattern } from '../../domain/rules';
import { analyticsAccessFor, analyticsAllows, type AnalyticsAccessLevel, type ServerAnalyticsState } from '../../domain/serverAccess';
import type { Db } from '../../../server/db/client';
import { analyticsAppMembers, analyticsApps, analyticsMembers, analyticsTenants, analyticsTokens, companyMembers, deployments, subscriptions, users } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import type { AuditActor } from '../../../server/services/audit';
import type { SessionUser } from '../../../server/services/sessions';
import { may } from '../../../src/domain/companies/access';
import type { CompanyRole } from '../../../src/domain/constants';

/**
 * Who calls the dashboard API: the signed-in portal user (mapped to a dashboard member), a token
 * from the token manager (its endpoint and parameter patterns checked on every request), or a
 * member's API key.
 */
export type AnalyticsActor =
  | { kind: 'session'; user: SessionUser }
  | { kind: 'token'; token: string; request: TokenRequest }
  | { kind: 'apiKey'; apiKey: string };

/** What a token is checked against: the path below /api/v1/analytics/{deploymentId} and the query. */
export interface TokenRequest {
  path: string;
  query: Record<string, string>;
}

export type Member = typeof analyticsMembers.$inferSelect;
export type App = typeof analyticsApps.$inferSelect;

export interface Access {
  tenantId: string;
  deploymentId: string;
  companyId: string;
  member: Member;
  /** The member's role per app (global admins have every right without rows here). */
  roles: Map<string, 'admin' | 'user'>;
  /** The apps a token is limited to; null when not limited. */
  tokenApps: string[] | null;
  /** What the server's state allows now (analyticsAccessFor): everything, or reading only. */
  level: Exclude<AnalyticsAccessLevel, 'none'>;
  /** How the actor came: account settings change only through the signed-in session. */
  via: AnalyticsActor['kind'];
  audit: AuditActor;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** What a call needs of the server's state (analyticsAccessFor): reading the data kept, or changing something. */
export interface StateRule {
  need: 'read' | 'write';
  /** PAST_DUE_GRACE_DAYS: how long a past-due subscription keeps everything. */
  graceDays: number;
}

/** The server's status and its subscription's, as analyticsAccessFor reads them; null when there is no such server. */
export async function serverStateOf(tx: Db, deploymentId: string): Promise<(ServerAnalyticsState & { companyId: string }) | null> {
  const [row] = await tx
    .select({ companyId: deployments.companyId, status: deployments.status, subStatus: subscriptions.status, pastDueSince: subscriptions.pastDueSince, pendingChange: subscriptions.pendingChange })
    .from(deployments)
    .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
    .where(eq(deployments.id, deploymentId));
  if (!row) return null;
  return { companyId: row.companyId, status: row.status, subscription: row.subStatus ? { status: row.subStatus, pastDueSince: row.pastDueSince, awaitsPaidChange: row.pendingChange !== null } : null };
}

/** Refuses what the server's state does not allow: nothing at all (unpaid, deleted), or no change (paused, overdue). */
export function requireServerState(level: AnalyticsAccessLevel, need: StateRule['need']): void {
  if (analyticsAllows(level, need)) return;
  throw new AppError(level === 'none' ? 'ANALYTICS_SERVER_UNAVAILABLE' : 'ANALYTICS_READ_ONLY');
}

async function tenantOf(tx: Db, deploymentId: string) {
  const [row] = await tx.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId));
  const state = row ? await serverStateOf(tx, deploymentId) : null;
  return row && state ? { id: row.id, ...state } : null;
}

/** The user's role in the company owning the server, now: removed users lose the dashboard on their next call. */
export async function companyRoleOf(tx: Db, companyId: string, userId: string): Promise<CompanyRole | null> {
  const [row] = await tx.select({ role: companyMembers.role }).from(companyMembers).where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  return row?.role ?? null;
}

/** Company admins own the server: a lock or a ban never keeps them out (nor did they ever lose global admin). */
function usable(member: Member, companyAdmin: boolean): boolean {
  return companyAdmin || (!member.locked && !(member.bannedUntil && member.bannedUntil > new Date()));
}

/** The token's patterns against the request: one endpoint whose path and every parameter match. */
function tokenAllows(endpoints: (typeof analyticsTokens.$inferSelect)['endpoints'], request: TokenRequest): boolean {
  if (endpoints.length === 0) return true;
  return endpoints.some((e) => matchesPattern(e.path, request.path) && Object.entries(e.params).every(([name, pattern]) => request.query[name] !== undefined && matchesPattern(pattern, request.query[name] ?? '')));
}

/**
 * Resolves the actor to a member of the deployment's tenant, inside the caller's transaction (a
 * single-use token is spent in it, so a refused request leaves it unspent). A tenant that does
 * not exist answers like one the actor is not in: ids of other customers reveal nothing. Then
 * the server's state must allow what the call needs (`rule`), checked after the membership so
 * that strangers do not learn it either.
 */
export async function resolveAccess(tx: Db, deploymentId: string, actor: AnalyticsActor, rule: StateRule): Promise<Access> {
  const tenant = await tenantOf(tx, deploymentId);
  let member: Member | undefined;
  let tokenApps: string[] | null = null;
  if (actor.kind === 'session') {
    if (!tenant) throw new AppError('ANALYTICS_NOT_MEMBER');
    [member] = await tx.select().from(analyticsMembers).where(and(eq(analyticsMembers.tenantId, tenant.id), eq(analyticsMembers.userId, actor.user.id)));
  } else if (actor.kind === 'apiKey') {
    if (!tenant) throw new AppError('ANALYTICS_TOKEN_INVALID');
    [member] = await tx.select().from(analyticsMembers).where(and(eq(analyticsMembers.tenantId, tenant.id), eq(analyticsMembers.apiKeyHash, sha256(actor.apiKey))));
    if (!member) throw new AppError('ANALYTICS_TOKEN_INVALID');
  } else {
    if (!tenant) throw new AppError('ANALYTICS_TOKEN_INVALID');
    const now = new Date();
    const [token] = await tx
      .select()
      .from(analyticsTokens)
      .where(and(eq(analyticsTokens.tenantId, tenant.id), eq(analyticsTokens.tokenHash, sha256(actor.token)), isNull(analyticsTokens.spentAt), or(isNull(analyticsTokens.expiresAt), gt(analyticsTokens.expiresAt, now))));
    if (!token) throw new AppError('ANALYTICS_TOKEN_INVALID');
    if (!tokenAllows(token.endpoints, actor.request)) throw new AppError('ANALYTICS_TOKEN_REFUSED');
    if (!token.multiUse) {
      const spent = await tx.update(analyticsTokens).set({ spentAt: now }).where(and(eq(analyticsTokens.id, token.id), isNull(analyticsTokens.spentAt))).returning({ id: analyticsTokens.id });
      if (spent.length === 0) throw new AppError('ANALYTICS_TOKEN_INVALID');
    }
    tokenApps = token.appIds;
    [member] = await tx.select().from(analyticsMembers).where(eq(analyticsMembers.id, token.ownerId));
  }
  if (!tenant || !member) throw new AppError('ANALYTICS_NOT_MEMBER');
  // Membership is checked on every call, whatever the credential: a user removed from the company is
  // out at once, and the billing role never reaches the dashboards (ACCESS_LEVELS.servers).
  const companyRole = await companyRoleOf(tx, tenant.companyId, member.userId);
  if (!may(companyRole, 'servers') || !usable(member, companyRole === 'admin')) throw new AppError('ANALYTICS_NOT_MEMBER');
  if (companyRole === 'admin' && !member.globalAdmin) member = { ...member, globalAdmin: true };
  const level = analyticsAccessFor(tenant, rule.graceDays);
  requireServerState(level, rule.need);
  const roles = new Map((await tx.select().from(analyticsAppMembers).where(eq(analyticsAppMembers.memberId, member.id))).map((r) => [r.appId, r.role] as const));
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, member.userId));
  return { tenantId: tenant.id, deploymentId, companyId: tenant.companyId, member, roles, tokenApps, level: level === 'full' ? 'full' : 'read', via: actor.kind, audit: { id: member.userId, email: user?.email ?? member.email } };
}

const tokenReaches = (access: Access, appId: string) => access.tokenApps === null || access.tokenApps.includes(appId);

export const canRead = (access: Access, appId: string) => tokenReaches(access, appId) && (access.member.globalAdmin || access.roles.has(appId));
export const canAdmin = (access: Access, appId: string) => tokenReaches(access, appId) && (access.member.globalAdmin || access.roles.get(appId) === 'admin');

/** An app of this tenant the actor may read (or administer): other tenants' apps are simply not found. */
export async function appFor(tx: Db, access: Access, appId: string, need: 'read' | 'admin'): Promise<App> {
  const [app] = await tx.select().from(analyticsApps).where(and(eq(analyticsApps.id, appId), eq(analyticsApps.tenantId, access.tenantId)));
  if (!app || !canRead(access, app.id)) throw new AppError('ANALYTICS_APP_NOT_FOUND');
  if (need === 'admin' && !canAdmin(access, app.id)) throw new AppError('ANALYTICS_APP_ADMIN_REQUIRED');
  return app;
}

export function requireGlobalAdmin(access: Access): void {
  if (!access.member.globalAdmin || access.tokenApps !== null) throw new AppError('ANALYTICS_GLOBAL_ADMIN_REQUIRED');
}

export function requireSessionActor(access: Access): void {
  if (access.via !== 'session') throw new AppError('ANALYTICS_TOKEN_REFUSED');
}
