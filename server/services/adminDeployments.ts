import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AdminDeploymentAction, AdminDeploymentActionBody, AdminDeploymentDetail, AdminDeploymentRow } from '../../src/domain/admin/deployments';
import type { AdminDeploymentSortField, MAU_TIER_FILTERS } from '../../src/domain/deployments/listQuery';
import type { DeploymentStatus } from '../../src/domain/orders/schemas';
import { mauMonthStart } from '../../src/domain/usage/mauRule';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, deploymentBackups, deploymentRuntime, deploymentTasks, deployments, mauHistory, plans, regions, subscriptions } from '../db/schema';
import { AppError } from '../errors';
import { listAndExport, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { withDomainCheck } from './customDomains';
import { taskDto } from './deploymentTasks';
import type { DeploymentActionService } from './deploymentActions';
import { backupDto, lastHealthChecks } from './deploymentReads';
import { anyDeploymentViewRowsQuery, deploymentViews, mauHistoryOf } from './deploymentViews';
import { UUID } from './plans';
import { serverLabels } from './serverLabels';
import type { SessionUser } from './sessions';

export interface DeploymentFilter {
  status?: DeploymentStatus;
  companyId?: string;
  mau?: (typeof MAU_TIER_FILTERS)[number];
}
export type DeploymentListQuery = ListQuery<AdminDeploymentSortField, DeploymentFilter>;

export const DEPLOYMENT_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'name', header: 'Name' },
  { id: 'companyName', header: 'Company' },
  { id: 'status', header: 'Status' },
  { id: 'planName', header: 'Plan' },
  { id: 'regionName', header: 'Region' },
  { id: 'subscriptionStatus', header: 'Subscription' },
  { id: 'createdAt', header: 'Created' },
] as const;

// The plan as the customer sees it ("Growth"); its code should the plan row be gone.
const planNameColumn = sql<string>`coalesce(${plans.name}, ${deployments.planCode})`;

// The region is the plan_config's region id (a uuid as text); the join compares it as text.
const regionJoin = sql`${regions.id}::text = ${deployments.planConfig}->>'region'`;

const deploymentsTable = (db: Db): AdminTable<AdminDeploymentSortField, AdminDeploymentRow> => ({
  sortColumns: {
    _id: { column: deployments.id, type: 'uuid' },
    name: { column: deployments.name, type: 'text' },
    companyName: { column: companies.name, type: 'text' },
    status: { column: sql`${deployments.status}::text`, type: 'text' },
    planCode: { column: deployments.planCode, type: 'text' },
    planName: { column: planNameColumn, type: 'text' },
    regionName: { column: sql`coalesce(${regions.name}, '')`, type: 'text' },
    subscriptionStatus: { column: sql`coalesce(${subscriptions.status}::text, '')`, type: 'text' },
    createdAt: { column: deployments.createdAt, type: 'timestamptz' },
  },
  id: deployments.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({
        d: deployments,
        companyName: companies.name,
        planName: planNameColumn,
        regionName: regions.name,
        subscriptionStatus: subscriptions.status,
        scheduledChange: subscriptions.scheduledChange,
        deletingOn: deploymentRuntime.terminationScheduledAt,
        cursor: sql<string>`${cursor}`,
      })
      .from(deployments)
      .innerJoin(companies, eq(companies.id, deployments.companyId))
      .leftJoin(plans, eq(plans.id, deployments.planId))
      .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
      .leftJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
      .leftJoin(regions, regionJoin)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      row: {
        _id: r.d.id,
        name: r.d.name,
        companyId: r.d.companyId,
        companyName: r.companyName,
        status: r.d.status,
        planCode: r.d.planCode,
        planName: r.planName,
        free: r.d.free,
        regionName: r.regionName,
        subscriptionStatus: r.subscriptionStatus,
        terminationScheduledAt: r.deletingOn?.toISOString() ?? null,
        scheduledChange: r.scheduledChange ?? null,
        createdAt: r.d.createdAt.toISOString(),
      },
      cursor: r.cursor,
      id: r.d.id,
    }));
  },
  count: async (where) =>
    (
      await db
        .select({ n: count() })
        .from(deployments)
        .innerJoin(companies, eq(companies.id, deployments.companyId))
        .leftJoin(plans, eq(plans.id, deployments.planId))
        .leftJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .leftJoin(regions, regionJoin)
        .where(where)
    )[0]?.n ?? 0,
});


function whereOf(query: DeploymentListQuery): SQL | undefined {
  const f = query.filter ?? {};
  return and(
    searchOver(query.q, [deployments.name, companies.name, deployments.planCode, sql`${deployments.id}::text`, plans.name]),
    query.ids ? (query.ids.length ? inArray(deployments.id, query.ids) : sql`false`) : undefined,
    f.status ? eq(deployments.status, f.status) : undefined,
    f.companyId === undefined ? undefined : UUID.test(f.companyId) ? eq(deployments.companyId, f.companyId) : sql`false`,
    // The sampling's forecast names a run-out day once the tier is passed or projected to be.
    f.mau === 'overOrProjected' ? sql`exists (select 1 from ${mauHistory} m where m.deployment_id = "deployments"."id" and m.starts_at = ${mauMonthStart(new Date()).toISOString()}::timestamptz and m.forecast->>'runOutOn' is not null)` : undefined,
  );
}

export type AdminDeploymentService = ReturnType<typeof createAdminDeploymentService>;

/** The admin area's servers: every server of every company, listed, exported, and one server's page with its tasks. */
export function createAdminDeploymentService({ db, config, actions }: { db: Db; config: Config; actions: DeploymentActionService }) {
  const table = deploymentsTable(db);
  return {
    ...listAndExport({ db, resource: 'deployments' }, table, whereOf, ({ scheduledChange: _change, ...row }) => ({ ...row, status: serverLabels.deploymentStatus(row.status), subscriptionStatus: serverLabels.subscription({ ...row, scheduledChange: _change }) })),

    /** A server as its customer's page shows it (deleted ones too), its company and all its tasks, newest first. */
    async get(actor: SessionUser, input: { deploymentId: string }): Promise<AdminDeploymentDetail> {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.deploymentId)) throw new AppError('DEPLOYMENT_NOT_FOUND');
      const [row] = await anyDeploymentViewRowsQuery(db).where(eq(deployments.id, input.deploymentId));
      if (!row) throw new AppError('DEPLOYMENT_NOT_FOUND');
      const [[view], mauHistory, [company], tasks, backups, healthChecks] = await Promise.all([
        deploymentViews(db, [row], config.PAST_DUE_GRACE_DAYS, config.SELLER_TAX_ID),
        mauHistoryOf(db, row.deployment.id),
        db.select({ name: companies.name }).from(companies).where(eq(companies.id, row.deployment.companyId)),
        db.select().from(deploymentTasks).where(eq(deploymentTasks.deploymentId, row.deployment.id)).orderBy(desc(deploymentTasks.seq)).limit(200),
        db.select().from(deploymentBackups).where(eq(deploymentBackups.deploymentId, row.deployment.id)).orderBy(desc(deploymentBackups.createdAt)).limit(20),
        lastHealthChecks(db, row.deployment.id),
      ]);
      if (!view) throw new AppError('DEPLOYMENT_NOT_FOUND');
      return { ...(await withDomainCheck(db, view)), mauHistory, companyName: company?.name ?? '', subscriptionStatus: row.subscription?.status ?? null, tasks: tasks.map(taskDto), backups: backups.map(backupDto), healthChecks };
    },

    /** One of the customer's actions, run by a platform admin under the customer's rules; answers the page again. */
    async act(actor: SessionUser, input: { deploymentId: string; action: AdminDeploymentAction; body?: AdminDeploymentActionBody }): Promise<AdminDeploymentDetail> {
      await actions.asPlatformAdmin(actor, input);
      return this.get(actor, { deploymentId: input.deploymentId });
    },
  };
}
