import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { ACCESS_LEVELS, type AccessLevel } from '../../src/domain/companies/access';
import type { DeploymentListQuery, DeploymentSortField } from '../../src/domain/deployments/listQuery';
import type { BackupDto, ByCompanyAnswer, DeploymentPopulated, DeploymentView, HealthCheckDto } from '../../src/domain/deployments/schemas';
import type { DeploymentTimeline } from '../../src/domain/deployments/tasks';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { VersionedCache, type ChangeFeed } from '../db/changes';
import { prepared } from '../db/prepared';
import { companyMembers, deploymentBackups, deploymentEvents, deploymentHealthChecks, deploymentTasks, deployments } from '../db/schema';
import { AppError } from '../errors';
import { COUNT_CAP, likePattern } from './adminQuery';
import type { Members } from './companies';
import { taskDto } from './deploymentTasks';
import { withDomainCheck } from './customDomains';
import { deploymentRowsQuery, deploymentViewRowsQuery, deploymentViews, deploymentViewRowsWith, populatedViewRow, thisMonth, notDeleted, type DeploymentRow, type DeploymentViewRow } from './deploymentViews';
import { UUID } from './plans';
import { SESSION_CACHE_MS } from './sessions';

/** The most servers one list answers (SPEC §9's largest page). */
const LIST_LIMIT = 1000;
const TIMELINE_LIMIT = 500;
/** The checks a server's page shows: its last ones. */
const HEALTH_CHECKS_SHOWN = 20;

type Actor = { id: string };

/**
 * A server for a member of its company (an admin where asked); deleted ones too when asked, so a
 * deleted server can be seen and restored. A stranger gets 403 like on every company-scoped call.
 */
export async function loadDeploymentFor(db: Db, members: Members, deploymentId: string, userId: string, options: { role?: AccessLevel; deleted?: boolean } = {}): Promise<DeploymentRow> {
  if (!UUID.test(deploymentId)) throw new AppError('DEPLOYMENT_NOT_FOUND');
  return authorised(members, (await deploymentRowsQuery(db).where(eq(deployments.id, deploymentId)))[0], userId, options);
}

async function authorised<T extends { deployment: { status: string; companyId: string } }>(members: Members, row: T | undefined, userId: string, options: { role?: AccessLevel; deleted?: boolean }): Promise<T> {
  if (!row || (row.deployment.status === 'deleted' && !options.deleted)) throw new AppError('DEPLOYMENT_NOT_FOUND');
  await members.require(row.deployment.companyId, userId, options.role ?? 'servers');
  return row;
}

export function backupDto(b: typeof deploymentBackups.$inferSelect): BackupDto {
  return {
    _id: b.id,
    deploymentId: b.deploymentId,
    kind: b.kind,
    status: b.status,
    sizeBytes: b.sizeBytes,
    createdAt: b.createdAt.toISOString(),
    completedAt: b.completedAt?.toISOString() ?? null,
    takenAt: b.takenAt?.toISOString() ?? null,
    error: b.error,
    restorable: b.status === 'completed' && b.storeKey !== null,
  };
}

/** A server's last health checks, newest first (its page and its admin page show them). */
export async function lastHealthChecks(db: Db, deploymentId: string): Promise<HealthCheckDto[]> {
  const h = deploymentHealthChecks;
  const rows = await db.select().from(h).where(eq(h.deploymentId, deploymentId)).orderBy(desc(h.checkedAt)).limit(HEALTH_CHECKS_SHOWN);
  return rows.map((c) => ({ _id: c.id, deploymentId: c.deploymentId, taskId: c.taskId, healthy: c.healthy, probes: c.probes, reason: c.reason, checkedAt: c.checkedAt.toISOString() }));
}

/** What decides a page statement's text: its sort and which filters it has (their values are parameters). */
type PageShape = { field: DeploymentSortField; order: 'ASC' | 'DESC'; project: boolean; status: boolean; q: boolean };
const shapeName = (s: PageShape) => `deployment_page_${s.field}_${s.order}${s.project ? '_p' : ''}${s.status ? '_s' : ''}${s.q ? '_q' : ''}`;

function pageWhere(shape: PageShape): SQL | undefined {
  return and(
    eq(deployments.companyId, sql.placeholder('company')),
    notDeleted,
    shape.project ? eq(deployments.projectId, sql.placeholder('project')) : undefined,
    shape.status ? eq(deployments.status, sql.placeholder('status')) : undefined,
    shape.q ? ilike(deployments.name, sql.placeholder('pattern')) : undefined,
  );
}
const cappedOf = (db: Db, shape: PageShape) => db.select({ one: deployments.id }).from(deployments).where(pageWhere(shape)).limit(COUNT_CAP + 1).as('capped');

/**
 * One statement a page: the page's ids (an index walk of the company's servers), their views and,
 * unless the total is known, the capped total, each subquery computed once (PostgreSQL's
 * InitPlans). Prepared once per shape.
 */
function pageStatement(db: Db, shape: PageShape, withTotal: boolean) {
  const name = `${shapeName(shape)}${withTotal ? '_total' : ''}`;
  return prepared(db, name, () => {
    const dir = shape.order === 'ASC' ? asc : desc;
    const sorted = [dir(deployments[shape.field]), dir(deployments.id)];
    const pageIds = db.select({ id: deployments.id }).from(deployments).where(pageWhere(shape)).orderBy(...sorted).limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
    const total = withTotal ? sql<number | null>`(select count(*) from ${cappedOf(db, shape)})` : sql<number | null>`null`;
    return deploymentViewRowsWith(db, { total: total.mapWith(Number).as('total') }, sql.placeholder('month'))
      .where(sql`${deployments.id} = any(array(${pageIds}))`)
      .orderBy(...sorted)
      .prepare(name);
  });
}

/** The capped total alone, for a page past the end. */
const countStatement = (db: Db, shape: PageShape) =>
  prepared(db, `${shapeName(shape)}_count`, () => db.select({ n: count() }).from(cappedOf(db, shape)).prepare(`${shapeName(shape)}_count`));

/** Reads of servers for the members of their companies (viewers included). */
export function createDeploymentReads({ db, members, config, serverChanges }: { db: Db; members: Members; config: Pick<Config, 'PAST_DUE_GRACE_DAYS' | 'SELLER_TAX_ID'>; serverChanges: ChangeFeed }) {
  const views = (rows: DeploymentViewRow[]) => deploymentViews(db, rows, config.PAST_DUE_GRACE_DAYS, config.SELLER_TAX_ID);
  // A list's total by its filters, kept until a server is written (this process) or for
  // SESSION_CACHE_MS (another process): counting a 1,000-server company was most of its page's time.
  const totals = new VersionedCache<number>(serverChanges, SESSION_CACHE_MS);

  return {
    /** GET /deployments?company&project: newest first, deleted ones left out. */
    async list(actor: Actor, companyId: string, projectId?: string): Promise<DeploymentView[]> {
      await members.require(companyId, actor.id, 'servers');
      if (projectId && !UUID.test(projectId)) return [];
      const rows = await deploymentViewRowsQuery(db)
        .where(and(eq(deployments.companyId, companyId), notDeleted, ...(projectId ? [eq(deployments.projectId, projectId)] : [])))
        .orderBy(desc(deployments.createdAt))
        .limit(LIST_LIMIT);
      return views(rows);
    },

    /**
     * GET /deployments?company&range&sort&filter: one page of the company's servers, sorted and
     * filtered in the database (the id breaks ties, so pages never overlap), and the total for
     * Content-Range, counted no further than COUNT_CAP (`bounded`: at least that many).
     */
    async page(actor: Actor, query: DeploymentListQuery & { range: [number, number] }): Promise<{ rows: DeploymentView[]; total: number; bounded: boolean }> {
      await members.require(query.company, actor.id, 'servers');
      if (query.project && !UUID.test(query.project)) return { rows: [], total: 0, bounded: false };
      const q = query.filter?.q?.trim();
      const [field, order] = query.sort ?? ['createdAt', 'DESC'];
      const shape = { field, order, project: Boolean(query.project), status: Boolean(query.filter?.status), q: Boolean(q) };
      const [from, to] = query.range;
      const filters = { company: query.company, project: query.project, status: query.filter?.status, pattern: q ? likePattern(q) : undefined };
      const params = { ...filters, limit: to - from + 1, offset: from, month: thisMonth().toISOString() };
      let rows: DeploymentViewRow[] | null = null;
      const n =
        (await totals.load(JSON.stringify(filters), async () => {
          const withTotal = await pageStatement(db, shape, true).execute(params);
          rows = withTotal;
          // A page past the end has no row to carry the total.
          return withTotal[0]?.total ?? (await countStatement(db, shape).execute(filters))[0]?.n ?? 0;
        })) ?? 0;
      rows ??= await pageStatement(db, shape, false).execute(params);
      return { rows: await views(rows), total: Math.min(n, COUNT_CAP), bounded: n > COUNT_CAP };
    },

    /** GET /deployments/by-company/{company}?count: the company's servers, or their number only. */
    async byCompany(actor: Actor, companyId: string, countOnly: boolean): Promise<ByCompanyAnswer> {
      await members.require(companyId, actor.id, 'servers');
      const where = and(eq(deployments.companyId, companyId), notDeleted);
      if (countOnly) return { count: await db.$count(deployments, where), deployments: [] };
      const list = await views(await deploymentViewRowsQuery(db).where(where).orderBy(desc(deployments.createdAt)).limit(LIST_LIMIT));
      return { count: list.length, deployments: list };
    },

    /** GET /deployments/by-user: the servers of every company where the user sees servers. */
    async byUser(actor: Actor): Promise<DeploymentView[]> {
      const companies = db
        .select({ id: companyMembers.companyId })
        .from(companyMembers)
        .where(and(eq(companyMembers.userId, actor.id), inArray(companyMembers.role, [...ACCESS_LEVELS.servers])));
      const rows = await deploymentViewRowsQuery(db)
        .where(and(inArray(deployments.companyId, companies), notDeleted))
        .orderBy(desc(deployments.createdAt))
        .limit(LIST_LIMIT);
      return views(rows);
    },

    /** GET /deployments/{id}/populated: one server as its page shows it, with its MAU history. */
    async populated(actor: Actor, deploymentId: string): Promise<DeploymentPopulated> {
      if (!UUID.test(deploymentId)) throw new AppError('DEPLOYMENT_NOT_FOUND');
      const row = await authorised(members, await populatedViewRow(db, deploymentId), actor.id, { deleted: true });
      const [view] = await views([row]);
      if (!view) throw new AppError('DEPLOYMENT_NOT_FOUND');
      return { ...(await withDomainCheck(db, view)), mauHistory: row.mauHistory };
    },

    async backups(actor: Actor, deploymentId: string): Promise<BackupDto[]> {
      await loadDeploymentFor(db, members, deploymentId, actor.id, { deleted: true });
      const rows = await db.select().from(deploymentBackups).where(eq(deploymentBackups.deploymentId, deploymentId)).orderBy(desc(deploymentBackups.createdAt)).limit(200);
      return rows.map(backupDto);
    },

    /** GET /deployments/{id}/health-checks: the server's last checks, newest first, with each probe's latency. */
    async healthChecks(actor: Actor, deploymentId: string): Promise<HealthCheckDto[]> {
      await loadDeploymentFor(db, members, deploymentId, actor.id, { deleted: true });
      return lastHealthChecks(db, deploymentId);
    },

    /** GET /deployments/events?_id=: every task of the server and its timeline, newest first. */
    async timeline(actor: Actor, deploymentId: string): Promise<DeploymentTimeline> {
      await loadDeploymentFor(db, members, deploymentId, actor.id, { deleted: true });
      const [tasks, events] = await Promise.all([
        db.select().from(deploymentTasks).where(eq(deploymentTasks.deploymentId, deploymentId)).orderBy(desc(deploymentTasks.seq)).limit(TIMELINE_LIMIT),
        db.select().from(deploymentEvents).where(eq(deploymentEvents.deploymentId, deploymentId)).orderBy(desc(deploymentEvents.at), desc(deploymentEvents.id)).limit(TIMELINE_LIMIT),
      ]);
      return {
        tasks: tasks.map(taskDto),
        events: events.map((e) => ({
          _id: e.id,
          deploymentId: e.deploymentId,
          at: e.at.toISOString(),
          kind: e.kind as DeploymentTimeline['events'][number]['kind'],
          fromStatus: e.fromStatus,
          toStatus: e.toStatus,
          taskId: e.taskId,
          taskType: e.taskType,
          message: e.message,
          actorEmail: e.actorEmail,
        })),
      };
    },
  };
}

export type DeploymentReads = ReturnType<typeof createDeploymentReads>;
