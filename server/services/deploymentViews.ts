import { and, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { cachedCatalogue } from '../db/catalogueCache';
import type { DeploymentDomain, DeploymentView, HealthState, SslState } from '../../src/domain/deployments/schemas';
import { verificationRecordName } from '../../src/domain/deployments/customDomain';
import type { SubscriptionDto } from '../../src/domain/orders/schemas';
import type { MauForecast } from '../../src/domain/usage/forecast';
import { mauFromPlanCode } from '../../src/domain/plans/planCode';
import { mauMonthStart } from '../../src/domain/usage/mauRule';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { companies, deploymentRuntime, deploymentTasks, deployments, features, mauHistory, plans, regions, subscriptions } from '../db/schema';
import { taxBasis } from '../../src/domain/billing/tax';
import { subscriptionDto, type SubscriptionViewRow } from './orderQuotes';

export type DeploymentRow = { deployment: typeof deployments.$inferSelect; subscription: typeof subscriptions.$inferSelect };
export type AnyDeploymentView = Omit<DeploymentView, 'billing'> & { billing: SubscriptionDto | null };
type RuntimeRow = Pick<typeof deploymentRuntime.$inferSelect, keyof typeof runtimeViewColumns>;
type DeploymentViewFields = Pick<typeof deployments.$inferSelect, keyof typeof deploymentViewColumns>;
type TaskViewRow = Pick<typeof deploymentTasks.$inferSelect, 'id' | 'type' | 'status' | 'progress' | 'lastError' | 'createdAt' | 'finishedAt'>;
/** The buyer's billing country and tax id, read with the subscription: its bill is taxed on them. */
type ViewSubscription = SubscriptionViewRow & { buyer: { country: string | null; taxId: string | null } | null };
/** A server's row with what its view adds (subscription, runtime, newest task, this month's MAU), read in one statement. */
export type DeploymentViewRow = { deployment: DeploymentViewFields; subscription: ViewSubscription; runtime: RuntimeRow | null; task: TaskViewRow | null; mau: { used: number | null; forecast: MauForecast | null } | null };
/** As the admin area reads it: the subscription row may be missing. */
export type AnyDeploymentViewRow = Omit<DeploymentViewRow, 'subscription'> & { subscription: ViewSubscription | null };

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * The DNS records a custom domain needs (services/domainDns.ts checks them): TXT to prove ownership,
 * CNAME to point it at the server's default address. Its last check is read for the server's page only.
 */
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
      custom && r.verificationToken && r.defaultDomain
        ? [
            { type: 'TXT', host: verificationRecordName(name), value: r.verificationToken },
            { type: 'CNAME', host: name, value: r.defaultDomain },
          ]
        : [],
    check: null,
  };
}

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

/**
 * What a view adds to its server, each part read by a lateral subquery with a LIMIT: PostgreSQL
 * then runs it as an index probe per server it returns, whatever the tables' sizes. As plain joins
 * a prepared statement's generic plan hashed whole tables (7 ms a page), so every run was planned
 * again (1 to 3 ms, more in WebAssembly), which made the page the costliest read of the portal.
 */
const subscriptionOf = (db: Db) =>
  db
    .select({
      id: subscriptions.id,
      deploymentId: subscriptions.deploymentId,
      vendor: subscriptions.vendor,
      status: subscriptions.status,
      cycle: subscriptions.cycle,
      quote: sql<SubscriptionViewRow['quote']>`jsonb_build_object('total', ${subscriptions.quote}->'total', 'tax', ${subscriptions.quote}->'tax', 'currency', ${subscriptions.quote}->'currency')`.as('quote'),
      buyer: sql<ViewSubscription['buyer']>`(select jsonb_build_object('country', ${companies.billingCountry}, 'taxId', ${companies.taxId}) from ${companies} where ${companies.id} = ${subscriptions.companyId})`.as('buyer'),
      currentPeriodStart: subscriptions.currentPeriodStart,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      nextBilledAt: subscriptions.nextBilledAt,
      scheduledChange: subscriptions.scheduledChange,
      pastDueSince: subscriptions.pastDueSince,
      pendingChange: subscriptions.pendingChange,
    })
    .from(subscriptions)
    .where(eq(subscriptions.deploymentId, deployments.id))
    .limit(1)
    .as('subscription');
/** What a view reads of a server's row: every field read is parsed for every row of a page, so not its creator nor its last change. */
const deploymentViewColumns = {
  id: deployments.id,
  name: deployments.name,
  providerId: deployments.providerId,
  planId: deployments.planId,
  planCode: deployments.planCode,
  planConfig: deployments.planConfig,
  paymentCycle: deployments.paymentCycle,
  free: deployments.free,
  companyId: deployments.companyId,
  projectId: deployments.projectId,
  status: deployments.status,
  createdAt: deployments.createdAt,
};
/** What a view reads of the runtime; first a column never null: drizzle reads a left join's part as missing when its first column is null. */
const runtimeViewColumns = {
  sslState: deploymentRuntime.sslState,
  machineId: deploymentRuntime.machineId,
  url: deploymentRuntime.url,
  defaultDomain: deploymentRuntime.defaultDomain,
  customDomain: deploymentRuntime.customDomain,
  verificationToken: deploymentRuntime.verificationToken,
  domainVerifiedAt: deploymentRuntime.domainVerifiedAt,
  healthState: deploymentRuntime.healthState,
  healthCheckedAt: deploymentRuntime.healthCheckedAt,
  terminationScheduledAt: deploymentRuntime.terminationScheduledAt,
  restorableUntil: deploymentRuntime.restorableUntil,
};
const runtimeOf = (db: Db) => db.select(runtimeViewColumns).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deployments.id)).limit(1).as('runtime');
/** This month's MAU row's key (the app's clock decides which month). */
export const thisMonth = () => mauMonthStart(new Date());
type Month = Date | Placeholder;

const mauOf = (db: Db, month: Month) =>
  db
    .select({ used: mauHistory.used, forecast: mauHistory.forecast })
    .from(mauHistory)
    .where(and(eq(mauHistory.deploymentId, deployments.id), eq(mauHistory.startsAt, month)))
    .limit(1)
    .as('mau');
const newestTaskOf = (db: Db) =>
  db
    .select({ id: deploymentTasks.id, type: deploymentTasks.type, status: deploymentTasks.status, progress: deploymentTasks.progress, lastError: deploymentTasks.lastError, createdAt: deploymentTasks.createdAt, finishedAt: deploymentTasks.finishedAt })
    .from(deploymentTasks)
    .where(eq(deploymentTasks.deploymentId, deployments.id))
    .orderBy(desc(deploymentTasks.seq))
    .limit(1)
    .as('latest_task');

function viewParts(db: Db, month: Month) {
  const subscription = subscriptionOf(db);
  const runtime = runtimeOf(db);
  const mau = mauOf(db, month);
  const task = newestTaskOf(db);
  return { subscription, runtime, mau, task, columns: { deployment: deploymentViewColumns, subscription: subscription._.selectedFields, runtime: runtime._.selectedFields, task: task._.selectedFields, mau: mau._.selectedFields } };
}

/**
 * A customer's servers with their subscription and what their view adds, in one statement: one
 * snapshot, so a page never shows a completed task beside the status from before it (two reads
 * could straddle the worker's commit), and one round trip whatever the count. The caller filters.
 */
export function deploymentViewRowsQuery(db: Db) {
  return deploymentViewRowsWith(db, {}, thisMonth());
}

/** The same with more columns (a page's total, a server's MAU history); the month is a placeholder in prepared statements. */
export function deploymentViewRowsWith<E extends Record<string, SQL.Aliased>>(db: Db, extra: E, month: Month) {
  const { subscription, runtime, mau, task, columns } = viewParts(db, month);
  return db
    .select({ ...columns, ...extra })
    .from(deployments)
    .innerJoinLateral(subscription, sql`true`)
    .leftJoinLateral(runtime, sql`true`)
    .leftJoinLateral(mau, sql`true`)
    .leftJoinLateral(task, sql`true`);
}

/** The same for every server, as the admin area shows them: the subscription when there is one. */
export function anyDeploymentViewRowsQuery(db: Db) {
  const { subscription, runtime, mau, task, columns } = viewParts(db, thisMonth());
  return db.select(columns).from(deployments).leftJoinLateral(subscription, sql`true`).leftJoinLateral(runtime, sql`true`).leftJoinLateral(mau, sql`true`).leftJoinLateral(task, sql`true`);
}

/**
 * Servers as the pages show them, from rows read by the queries above (names from the kept
 * catalogue); each bill on its company's current tax basis (sellerTaxId: SELLER_TAX_ID).
 */
export async function deploymentViews(db: Db, rows: DeploymentViewRow[], graceDays: number, sellerTaxId: string): Promise<DeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentViewRow[], graceDays: number, sellerTaxId: string): Promise<AnyDeploymentView[]>;
export async function deploymentViews(db: Db, rows: AnyDeploymentViewRow[], graceDays: number, sellerTaxId: string): Promise<AnyDeploymentView[]> {
  if (!rows.length) return [];
  const names = await catalogueNames(db);

  return rows.map(({ deployment: d, subscription: s, runtime: runtimeRow, task, mau }) => {
    const runtime = runtimeRow ?? undefined;
    // Options as ordered; ids that are not options (old orders kept codes) fall out.
    const chosen = d.planConfig.features.flatMap((id) => names.feature.get(id) ?? []);
    const regionName = names.regionName.get(d.planConfig.region);
    const mauLimit = mauFromPlanCode(d.planCode) ?? 0;
    return {
      _id: d.id,
      name: d.name,
      status: d.status,
      flags: { free: d.free },
      company: d.companyId,
      project: d.projectId,
      provider: { _id: d.providerId, code: d.planConfig.provider ?? null },
      subscription: { plan: d.planId, planCode: d.planCode, planConfig: d.planConfig, payment: { term: { cycle: d.paymentCycle } } },
      billing: s ? subscriptionDto(s, graceDays, taxBasis({ country: s.buyer?.country ?? null, taxId: s.buyer?.taxId ?? null, sellerTaxId })) : null,
      createdAt: d.createdAt.toISOString(),
      plan: { _id: d.planId, name: names.planName.get(d.planId) ?? d.planCode, code: d.planCode, mau: mauLimit },
      region: regionName !== undefined ? { _id: d.planConfig.region, name: regionName } : null,
      features: chosen.map((f) => ({ _id: f.id, code: f.code, name: f.name, type: f.type })),
      domain: domainOf(runtime),
      url: runtime?.machineId ? runtime.url : null,
      latestTask: task ? { _id: task.id, type: task.type, status: task.status, progress: task.progress, lastError: task.lastError, createdAt: task.createdAt.toISOString(), finishedAt: iso(task.finishedAt) } : null,
      health: { state: (runtime?.healthState ?? 'unknown') as HealthState, checkedAt: iso(runtime?.healthCheckedAt) },
      mau: { used: mau?.used ?? 0, limit: mauLimit, forecast: mau?.forecast ?? null },
      terminationScheduledAt: iso(runtime?.terminationScheduledAt),
      restorableUntil: d.status === 'deleted' ? iso(runtime?.restorableUntil) : null,
      backupsEnabled: chosen.some((f) => f.type === 'backup'),
      pendingPlan: s?.pendingChange ? { _id: s.pendingChange.planId, name: names.planName.get(s.pendingChange.planId) ?? s.pendingChange.planCode, code: s.pendingChange.planCode } : null,
    };
  });
}

/** One server's view row, by its id: the server pages' read, a prepared statement. */
export async function deploymentViewRow(db: Db, id: string): Promise<DeploymentViewRow | undefined> {
  const byId = prepared(db, 'deployment_view_by_id', () =>
    deploymentViewRowsWith(db, {}, sql.placeholder('month'))
      .where(eq(deployments.id, sql.placeholder('id')))
      .prepare('deployment_view_by_id'),
  );
  const [row] = await byId.execute({ id, month: thisMonth().toISOString() });
  return row;
}

type MauHistoryRow = { used: number; startsAt: Date | string; endsAt: Date | string; subscriptionId: string | null };
/** SPEC §3: a server's MAU history, oldest first; the newest two years. */
const historyEntries = (rows: MauHistoryRow[]) =>
  rows.map((m) => ({ used: m.used, startsAt: new Date(m.startsAt).toISOString(), endsAt: new Date(m.endsAt).toISOString(), subscriptionId: m.subscriptionId }));
const HISTORY_MONTHS = 24;

/**
 * The server page's read, in one statement: the view row and its MAU history (a JSON array, oldest
 * first), so the page costs one round trip. A prepared statement.
 */
export async function populatedViewRow(db: Db, id: string) {
  const byId = prepared(db, 'deployment_populated_by_id', () => {
    const history = sql<MauHistoryRow[]>`(select coalesce(json_agg(json_build_object('used', h.used, 'startsAt', h.starts_at, 'endsAt', h.ends_at, 'subscriptionId', h.subscription_id) order by h.starts_at), '[]')
      from (select used, starts_at, ends_at, subscription_id from ${mauHistory} where ${mauHistory.deploymentId} = ${deployments.id} order by starts_at desc limit ${sql.raw(String(HISTORY_MONTHS))}) h)`;
    return deploymentViewRowsWith(db, { mauHistory: history.as('mau_history_json') }, sql.placeholder('month'))
      .where(eq(deployments.id, sql.placeholder('id')))
      .prepare('deployment_populated_by_id');
  });
  const [row] = await byId.execute({ id, month: thisMonth().toISOString() });
  return row && { ...row, mauHistory: historyEntries(row.mauHistory) };
}

/** The same history alone, for the admin area's server page. */
export async function mauHistoryOf(db: Db, deploymentId: string) {
  const history = prepared(db, 'mau_history_of', () =>
    db
      .select({ used: mauHistory.used, startsAt: mauHistory.startsAt, endsAt: mauHistory.endsAt, subscriptionId: mauHistory.subscriptionId })
      .from(mauHistory)
      .where(eq(mauHistory.deploymentId, sql.placeholder('id')))
      .orderBy(desc(mauHistory.startsAt))
      .limit(HISTORY_MONTHS)
      .prepare('mau_history_of'),
  );
  return historyEntries((await history.execute({ id: deploymentId })).reverse());
}

/** Servers with their subscriptions, filtered; newest first. */
export function deploymentRowsQuery(db: Db) {
  return db.select({ deployment: deployments, subscription: subscriptions }).from(deployments).innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id));
}

export const notDeleted = sql`${deployments.status} <> 'deleted'`;
