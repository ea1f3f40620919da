import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { cachedCatalogue } from '../db/catalogueCache';
import type { DeploymentDomain, DeploymentView, HealthState, SslState } from '../../src/domain/deployments/schemas';
import type { SubscriptionDto } from '../../src/domain/orders/schemas';
import type { MauForecast } from '../../src/domain/usage/forecast';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import type { Db } from '../db/client';
import { deploymentRuntime, deploymentTasks, deployments, features, mauHistory, plans, regions, subscriptions } from '../db/schema';
import { subscriptionDto } from './orderQuotes';
import { taskDto } from './deploymentTasks';

export type DeploymentRow = { deployment: typeof deployments.$inferSelect; subscription: typeof subscriptions.$inferSelect };
export type AnyDeploymentView = Omit<DeploymentView, 'billing'> & { billing: SubscriptionDto | null };
type RuntimeRow = typeof deploymentRuntime.$inferSelect;
/** What a server's view adds to its row: runtime, newest task and this month's MAU. */
type ViewDetails = { runtime: RuntimeRow | null; task: typeof deploymentTasks.$inferSelect | null; mau: { used: number | null; forecast: MauForecast | null } | null };
/** A server's row with what its view adds, read in the same statement. */
export type DeploymentViewRow = DeploymentRow & ViewDetails;
/** As the admin area reads it: the subscription row may be missing. */
export type AnyDeploymentViewRow = Omit<DeploymentViewRow, 'subscription'> & { subscription: typeof subscriptions.$inferSelect | null };

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

const latestTasks = alias(deploymentTasks, 'latest_task');
type FeatureRef = Pick<typeof features.$inferSelect, 'id' | 'code' | 'name' | 'type'>;

/** Names of plans, regions and options by id: the catalogue is small and kept in memory until it changes. */
function catalogueNames(db: Db) {
  return cachedCatalogue(db, 'deploymentViewNames', async () => {
    const [planRows, regionRows, featureRows] = await Promise.all([
      db.select({ id: plans.id, name: plans.name }).from(plans),
      db.select({ id: regions.id, name: regions.name }).from(regions),
      db.select({ id: features.id, code: features.code, name: features.name, type: features.type }).from(features),
    ]);
    return {
      planName: new Map(planRows.map((p) => [p.id, p.name])),
      regionName: new Map(regionRows.map((r) => [r.id, r.name])),
      feature: new Map<string, FeatureRef>(featureRows.map((f) => [f.id, f])),
    };
  });
}

/** What a view row selects, and how each part joins its server. */
const viewColumns = { deployment: deployments, subscription: subscriptions, runtime: deploymentRuntime, task: latestTasks, mau: { used: mauHistory.used, forecast: mauHistory.forecast } };
const ofSubscription = eq(subscriptions.deploymentId, deployments.id);
const ofRuntime = eq(deploymentRuntime.deploymentId, deployments.id);
const thisMonthsMau = () => and(eq(mauHistory.deploymentId, deployments.id), eq(mauHistory.startsAt, new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1))));
// The newest task of each server: one row off the (deployment, seq) index.
const newestTask = sql`${latestTasks.id} = (select t.id from ${deploymentTasks} t where t.deployment_id = ${deployments.id} order by t.seq desc limit 1)`;

/**
 * A customer's servers with their subscription and what their view adds, in one statement: one
 * snapshot, so a page never shows a completed task beside the status from before it (two reads
 * could straddle the worker's commit), and one round trip whatever the count. The caller filters.
 */
export function deploymentViewRowsQuery(db: Db) {
  return db.select(viewColumns).from(deployments).innerJoin(subscriptions, ofSubscription).leftJoin(deploymentRuntime, ofRuntime).leftJoin(mauHistory, thisMonthsMau()).leftJoin(latestTasks, newestTask);
}

/** The same for every server, as the admin area shows them: the subscription when there is one. */
export function anyDeploymentViewRowsQuery(db: Db) {
  return db.select(viewColumns).from(deployments).leftJoin(subscriptions, ofSubscription).leftJoin(deploymentRuntime, ofRuntime).leftJoin(mauHistory, thisMonthsMau()).leftJoin(latestTasks, newestTask);
}

/** Servers as the pages show them, from rows read by the queries above (names from the kept catalogue). */
export async function deploymentViews(db: Db, rows: DeploymentViewRow[], graceDays: number): Promise<DeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentViewRow[], graceDays: number): Promise<AnyDeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentViewRow[], graceDays: number): Promise<AnyDeploymentView[]> {
  if (!rows.length) return [];
  const names = await catalogueNames(db);

  return rows.map(({ deployment: d, subscription: s, runtime: runtimeRow, task, mau }) => {
    const runtime = runtimeRow ?? undefined;
    const latest = task ? taskDto(task) : null;
    // Options as ordered; ids that are not options (old orders kept codes) fall out.
    const chosen = d.planConfig.features.flatMap((id) => names.feature.get(id) ?? []);
    const regionName = names.regionName.get(d.planConfig.region);
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
      plan: { _id: d.planId, name: names.planName.get(d.planId) ?? d.planCode, code: d.planCode, mau: mauFromPlanCode(d.planCode) ?? 0 },
      region: regionName !== undefined ? { _id: d.planConfig.region, name: regionName } : null,
      features: chosen.map((f) => ({ _id: f.id, code: f.code, name: f.name, type: f.type })),
      domain: domainOf(runtime),
      url: runtime?.machineId ? runtime.url : null,
      latestTask: latest ? { _id: latest._id, type: latest.type, status: latest.status, progress: latest.progress, lastError: latest.lastError, createdAt: latest.createdAt, finishedAt: latest.finishedAt } : null,
      health: { state: (runtime?.healthState ?? 'unknown') as HealthState, checkedAt: iso(runtime?.healthCheckedAt) },
      mau: { used: mau?.used ?? 0, limit: mauFromPlanCode(d.planCode) ?? 0, forecast: mau?.forecast ?? null },
      terminationScheduledAt: iso(runtime?.terminationScheduledAt),
      restorableUntil: d.status === 'deleted' ? iso(runtime?.restorableUntil) : null,
      backupsEnabled: chosen.some((f) => f.type === 'backup'),
      pendingPlan: s?.pendingChange ? { _id: s.pendingChange.planId, name: names.planName.get(s.pendingChange.planId) ?? s.pendingChange.planCode, code: s.pendingChange.planCode } : null,
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

export const notDeleted = sql`${deployments.status} <> 'deleted'`;
