import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DeploymentDomain, DeploymentView, HealthState, SslState } from '../../src/domain/deployments/schemas';
import type { SubscriptionDto } from '../../src/domain/orders/schemas';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { Db } from '../db/client';
import { deploymentRuntime, deploymentTasks, deployments, features, mauHistory, plans, regions, subscriptions } from '../db/schema';
import { subscriptionDto } from './orderQuotes';
import { taskDto } from './deploymentTasks';

export type DeploymentRow = { deployment: typeof deployments.$inferSelect; subscription: typeof subscriptions.$inferSelect };
/** A server as the admin area reads it: the subscription row may be missing. */
export type AnyDeploymentRow = { deployment: typeof deployments.$inferSelect; subscription: typeof subscriptions.$inferSelect | null };
export type AnyDeploymentView = Omit<DeploymentView, 'billing'> & { billing: SubscriptionDto | null };
type RuntimeRow = typeof deploymentRuntime.$inferSelect;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The DNS records a custom domain needs: TXT to prove ownership, CNAME to point it at the server. */
function domainOf(r: RuntimeRow | undefined): DeploymentDomain | null {
  if (!r) return null;
  const name = r.customDomain ?? r.defaultDomain;
  if (!name) return null;
  const custom = r.customDomain !== null;
  const verified = !custom || r.domainVerifiedAt !== null;
  return {
    name,
    custom,
    ssl: r.sslState as SslState,
    verified,
    verifiedAt: iso(r.domainVerifiedAt),
    verification:
      custom && !verified && r.verificationToken
        ? [
            { type: 'TXT', host: `_beacon-verify.${name}`, value: r.verificationToken },
            { type: 'CNAME', host: name, value: r.defaultDomain ?? '' },
          ]
        : [],
  };
}

/**
 * Servers as the pages show them, built for many at once: a fixed number of queries whatever the
 * count (plans, regions, options, runtime, latest tasks and this month's MAU are read in batches).
 */
export async function deploymentViews(db: Db, rows: DeploymentRow[], graceDays: number): Promise<DeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentRow[], graceDays: number): Promise<AnyDeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentRow[], graceDays: number): Promise<AnyDeploymentView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.deployment.id);
  const planIds = [...new Set(rows.flatMap((r) => [r.deployment.planId, ...(r.subscription?.pendingChange ? [r.subscription.pendingChange.planId] : [])]))];
  const regionIds = [...new Set(rows.map((r) => r.deployment.planConfig.region).filter((id) => /^[0-9a-f-]{36}$/i.test(id)))];
  const featureIds = [...new Set(rows.flatMap((r) => r.deployment.planConfig.features).filter((id) => /^[0-9a-f-]{36}$/i.test(id)))];
  const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const [planRows, regionRows, featureRows, runtimeRows, taskRows, mauRows] = await Promise.all([
    db.select({ id: plans.id, name: plans.name, code: plans.code }).from(plans).where(inArray(plans.id, planIds)),
    regionIds.length ? db.select({ id: regions.id, name: regions.name }).from(regions).where(inArray(regions.id, regionIds)) : Promise.resolve([]),
    featureIds.length ? db.select({ id: features.id, code: features.code, name: features.name, type: features.type, order: features.order }).from(features).where(inArray(features.id, featureIds)).orderBy(asc(features.order)) : Promise.resolve([]),
    db.select().from(deploymentRuntime).where(inArray(deploymentRuntime.deploymentId, ids)),
    // The newest task of each server: DISTINCT ON over the (deployment, seq) index.
    db
      .selectDistinctOn([deploymentTasks.deploymentId])
      .from(deploymentTasks)
      .where(inArray(deploymentTasks.deploymentId, ids))
      .orderBy(deploymentTasks.deploymentId, desc(deploymentTasks.seq)),
    db.select({ deploymentId: mauHistory.deploymentId, used: mauHistory.used, forecast: mauHistory.forecast }).from(mauHistory).where(and(inArray(mauHistory.deploymentId, ids), eq(mauHistory.startsAt, monthStart))),
  ]);
  const planById = new Map(planRows.map((p) => [p.id, p]));
  const regionById = new Map(regionRows.map((r) => [r.id, r]));
  const featureById = new Map(featureRows.map((f) => [f.id, f]));
  const runtimeById = new Map(runtimeRows.map((r) => [r.deploymentId, r]));
  const taskById = new Map(taskRows.map((t) => [t.deploymentId, t]));
  const mauById = new Map(mauRows.map((m) => [m.deploymentId, m]));
  const backupFeature = new Set(featureRows.filter((f) => f.type === 'backup').map((f) => f.id));

  return rows.map(({ deployment: d, subscription: s }) => {
    const plan = planById.get(d.planId);
    const region = regionById.get(d.planConfig.region);
    const runtime = runtimeById.get(d.id);
    const task = taskById.get(d.id);
    const latest = task ? taskDto(task) : null;
    return {
      _id: d.id,
      name: d.name,
      status: d.status,
      flags: { free: d.free },
      company: d.companyId,
      project: d.projectId,
      provider: { _id: d.providerId, code: d.planConfig.provider ?? null },
      subscription: { plan: d.planId, planCode: d.planCode, planConfig: d.planConfig, payment: { term: { cycle: d.paymentCycle } } },
      billing: s ? subscriptionDto(s, graceDays) : null,
      createdAt: d.createdAt.toISOString(),
      plan: { _id: d.planId, name: plan?.name ?? d.planCode, code: d.planCode, mau: mauFromPlanCode(d.planCode) ?? 0 },
      region: region ? { _id: region.id, name: region.name } : null,
      features: d.planConfig.features.flatMap((id) => {
        const f = featureById.get(id);
        return f ? [{ _id: f.id, code: f.code, name: f.name, type: f.type }] : [];
      }),
      domain: domainOf(runtime),
      url: runtime?.machineId ? runtime.url : null,
      latestTask: latest ? { _id: latest._id, type: latest.type, status: latest.status, progress: latest.progress, lastError: latest.lastError, createdAt: latest.createdAt, finishedAt: latest.finishedAt } : null,
      health: { state: (runtime?.healthState ?? 'unknown') as HealthState, checkedAt: iso(runtime?.healthCheckedAt) },
      mau: { used: mauById.get(d.id)?.used ?? 0, limit: mauFromPlanCode(d.planCode) ?? 0, forecast: mauById.get(d.id)?.forecast ?? null },
      terminationScheduledAt: iso(runtime?.terminationScheduledAt),
      restorableUntil: d.status === 'deleted' ? iso(runtime?.restorableUntil) : null,
      backupsEnabled: d.planConfig.features.some((id) => backupFeature.has(id)),
      pendingPlan: s?.pendingChange ? { _id: s.pendingChange.planId, name: planById.get(s.pendingChange.planId)?.name ?? s.pendingChange.planCode, code: s.pendingChange.planCode } : null,
    };
  });
}

/** SPEC §3 mau history of one server, oldest first (at most two years). */
export async function mauHistoryOf(db: Db, deploymentId: string) {
  const rows = await db.select().from(mauHistory).where(eq(mauHistory.deploymentId, deploymentId)).orderBy(desc(mauHistory.startsAt)).limit(24);
  return rows.reverse().map((m) => ({ used: m.used, startsAt: m.startsAt.toISOString(), endsAt: m.endsAt.toISOString(), subscriptionId: m.subscriptionId }));
}

/** Servers with their subscriptions, filtered; newest first. */
export function deploymentRowsQuery(db: Db) {
  return db.select({ deployment: deployments, subscription: subscriptions }).from(deployments).innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id));
}

/** Servers with their subscription when they have one (the admin area shows every server). */
export function anyDeploymentRowsQuery(db: Db) {
  return db.select({ deployment: deployments, subscription: subscriptions }).from(deployments).leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id));
}

export const notDeleted = sql`${deployments.status} <> 'deleted'`;
