import { and, eq, inArray } from 'drizzle-orm';
import { DASHBOARD_VERSION } from '../../domain/constants';
import { analyticsAccessFor } from '../../domain/serverAccess';
import type { Db } from '../../../server/db/client';
import { analyticsMembers, analyticsTenants, analyticsVersions, companyMembers, deployments, users } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { recordAudit, type AuditActor } from '../../../server/services/audit';
import { requireServerState, serverStateOf } from './access';
import { may } from '../../../src/domain/companies/access';

export interface CreateTenantOptions {
  /** The portal user who ordered the server: the dashboard's first global admin. */
  creatorUserId?: string | null;
  actor?: AuditActor | null;
  rawRetentionDays?: number;
}

function memberFields(user: { id: string; email: string; firstName: string; lastName: string }) {
  return { userId: user.id, email: user.email, username: user.email, fullName: `${user.firstName} ${user.lastName}`.trim() };
}

/**
 * Makes the deployment's analytics dashboard: the tenant, its version history and, when known,
 * its first global admin. The provisioning task calls it in its transaction; calling it again for
 * the same deployment returns the existing tenant.
 */
export async function createTenant(tx: Db, deploymentId: string, options: CreateTenantOptions = {}): Promise<string> {
  const [existing] = await tx.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId));
  if (existing) return existing.id;
  const [deployment] = await tx.select({ companyId: deployments.companyId }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!deployment) throw new AppError('DEPLOYMENT_NOT_FOUND');
  const [tenant] = await tx
    .insert(analyticsTenants)
    .values({ deploymentId, ...(options.rawRetentionDays ? { rawRetentionDays: options.rawRetentionDays } : {}) })
    .returning({ id: analyticsTenants.id });
  if (!tenant) throw new Error('tenant insert returned nothing');
  await tx.insert(analyticsVersions).values({ tenantId: tenant.id, version: DASHBOARD_VERSION });
  if (options.creatorUserId) {
    const [user] = await tx.select().from(users).where(eq(users.id, options.creatorUserId));
    if (user) await tx.insert(analyticsMembers).values({ tenantId: tenant.id, globalAdmin: true, ...memberFields(user) });
  }
  await recordAudit(tx, { actor: options.actor ?? null, action: 'analyticsTenant.create', targetType: 'analyticsTenant', targetId: tenant.id, companyId: deployment.companyId, after: { deploymentId } });
  return tenant.id;
}

/** Removes the deployment's dashboard and every row of it (apps, data, users, tokens, jobs cascade). */
export async function removeTenant(tx: Db, deploymentId: string, actor: AuditActor | null = null): Promise<boolean> {
  const removed = await tx.delete(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId)).returning({ id: analyticsTenants.id });
  const [row] = removed;
  if (!row) return false;
  const [deployment] = await tx.select({ companyId: deployments.companyId }).from(deployments).where(eq(deployments.id, deploymentId));
  await recordAudit(tx, { actor, action: 'analyticsTenant.remove', targetType: 'analyticsTenant', targetId: row.id, companyId: deployment?.companyId ?? null, before: { deploymentId } });
  return true;
}

/**
 * The server sign-in link's landing: maps the signed-in portal user to a dashboard member.
 * Company admins own the server: the first one to open it makes the tenant (until the provisioning
 * task does it), and each is mapped in as a global admin. Company viewers enter once a global admin
 * has added them. Others (and other companies) are refused without learning whether it exists.
 */
export async function openTenant(tx: Db, deploymentId: string, user: { id: string; email: string; firstName: string; lastName: string }, graceDays: number): Promise<void> {
  const state = await serverStateOf(tx, deploymentId);
  const [membership] = state
    ? await tx.select({ role: companyMembers.role }).from(companyMembers).where(and(eq(companyMembers.companyId, state.companyId), eq(companyMembers.userId, user.id)))
    : [];
  if (!state || !membership || !may(membership.role, 'servers')) throw new AppError('ANALYTICS_NOT_MEMBER');
  // An unpaid order or a deleted server opens nothing (and gets no tenant); a paused one opens to read.
  const level = analyticsAccessFor(state, graceDays);
  requireServerState(level, 'read');
  const actor = { id: user.id, email: user.email };
  const [tenant] = await tx.select({ id: analyticsTenants.id }).from(analyticsTenants).where(eq(analyticsTenants.deploymentId, deploymentId));
  if (!tenant && membership.role !== 'admin') throw new AppError('ANALYTICS_TENANT_MISSING');
  if (!tenant) requireServerState(level, 'write');
  const tenantId = tenant?.id ?? (await createTenant(tx, deploymentId, { actor }));
  const [member] = await tx.select().from(analyticsMembers).where(and(eq(analyticsMembers.tenantId, tenantId), eq(analyticsMembers.userId, user.id)));
  if (member) {
    // A company admin locked, banned or demoted on the dashboard (by anyone) gets it all back here.
    const owner = membership.role === 'admin' ? { globalAdmin: true, locked: false, bannedUntil: null } : {};
    await tx.update(analyticsMembers).set({ lastLoginAt: new Date(), ...owner }).where(eq(analyticsMembers.id, member.id));
    return;
  }
  if (membership.role !== 'admin') throw new AppError('ANALYTICS_NOT_MEMBER');
  const [created] = await tx
    .insert(analyticsMembers)
    .values({ tenantId, globalAdmin: true, lastLoginAt: new Date(), ...memberFields(user) })
    .returning({ id: analyticsMembers.id });
  await recordAudit(tx, { actor, action: 'analyticsMember.create', targetType: 'analyticsMember', targetId: created?.id ?? '', companyId: state.companyId, after: { globalAdmin: true, via: 'signin-link' } });
}

/**
 * A user leaving a company (removed, or no longer its admin) leaves the dashboards of its servers
 * in the caller's transaction: the member rows go, and their API keys, tokens and app roles with
 * them (cascade). Returns how many dashboards they left.
 */
export async function endCompanyAccess(tx: Db, companyId: string, userId: string, actor: AuditActor | null): Promise<number> {
  const tenantIds = tx
    .select({ id: analyticsTenants.id })
    .from(analyticsTenants)
    .innerJoin(deployments, eq(deployments.id, analyticsTenants.deploymentId))
    .where(eq(deployments.companyId, companyId));
  const gone = await tx
    .delete(analyticsMembers)
    .where(and(eq(analyticsMembers.userId, userId), inArray(analyticsMembers.tenantId, tenantIds)))
    .returning({ id: analyticsMembers.id, globalAdmin: analyticsMembers.globalAdmin });
  for (const m of gone) await recordAudit(tx, { actor, action: 'analyticsMember.remove', targetType: 'analyticsMember', targetId: m.id, companyId, before: { userId, globalAdmin: m.globalAdmin }, after: { reason: 'left-company' } });
  return gone.length;
}

export { memberFields };
