import { and, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { redactSecrets, type AuditTargetType } from '../../src/domain/audit';
import type { AuditLogRow } from '../../src/domain/admin/schemas';
import type { Db } from '../db/client';
import { analyticsApps, analyticsMembers, analyticsReports, analyticsTenants, auditLogs, companies, deployments, deploymentTasks, invitations, planGroups, projects, quotes, subscriptions, users } from '../db/schema';
import { AppError } from '../errors';
import { countUpTo, FILTER_PEEK, likePattern, listAndExport, plannerEstimate, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { UUID } from './plans';
import type { SessionUser } from './sessions';

export const LOG_SORT_FIELDS = ['at', '_id', 'action', 'targetType', 'actorEmail'] as const;
export type LogSortField = (typeof LOG_SORT_FIELDS)[number];
export interface LogFilter {
  targetType?: AuditTargetType;
  targetId?: string;
  action?: string;
  /** An actor's id, or part of their email. */
  actor?: string;
  from?: string;
  to?: string;
}
export type LogListQuery = ListQuery<LogSortField, LogFilter>;

export const LOG_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'at', header: 'When' },
  { id: 'actorEmail', header: 'Who' },
  { id: 'actorId', header: 'Who (id)' },
  { id: 'action', header: 'What' },
  { id: 'targetType', header: 'Target type' },
  { id: 'targetName', header: 'Target' },
  { id: 'targetId', header: 'Target (id)' },
  { id: 'companyName', header: 'Company' },
  { id: 'companyId', header: 'Company (id)' },
  { id: 'ip', header: 'IP' },
  { id: 'before', header: 'Before' },
  { id: 'after', header: 'After' },
] as const;

type LogRecord = typeof auditLogs.$inferSelect;
const toRow = (r: LogRecord, names: Names = NO_NAMES): AuditLogRow => ({
  _id: r.id,
  at: r.at.toISOString(),
  actorId: r.actorId,
  actorEmail: r.actorEmail,
  action: r.action,
  targetType: r.targetType,
  targetId: r.targetId,
  companyId: r.companyId,
  targetName: names.get(`${r.targetType}:${r.targetId}`) ?? recordedName(r),
  companyName: r.companyId ? (names.get(`company:${r.companyId}`) ?? null) : null,
  ip: r.ip,
  // Rows written before a secret was redacted at write time must not show it either.
  before: redactSecrets(r.before ?? null),
  after: redactSecrets(r.after ?? null),
});

/** The export flattens before and after to JSON text: one cell each. */
const toExportRow = (r: AuditLogRow) => ({ ...r, before: r.before ? JSON.stringify(r.before) : null, after: r.after ? JSON.stringify(r.after) : null });

/** Names by `<targetType>:<id>`; a company's under `company:<id>` whatever the entry's target. */
type Names = Map<string, string>;
const NO_NAMES: Names = new Map();

/** The tables a target type's id points at, and the name a person knows it by (a user by email). */
const NAMED_TARGETS: Partial<Record<AuditTargetType, (db: Db, ids: string[]) => Promise<{ id: string; name: string }[]>>> = {
  user: (db, ids) => db.select({ id: users.id, name: users.email }).from(users).where(inArray(users.id, ids)),
  // A membership's entries name the member's user.
  member: (db, ids) => db.select({ id: users.id, name: users.email }).from(users).where(inArray(users.id, ids)),
  company: (db, ids) => db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, ids)),
  project: (db, ids) => db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, ids)),
  invitation: (db, ids) => db.select({ id: invitations.id, name: invitations.email }).from(invitations).where(inArray(invitations.id, ids)),
  deployment: (db, ids) => db.select({ id: deployments.id, name: deployments.name }).from(deployments).where(inArray(deployments.id, ids)),
  // A subscription and a task are named by their server.
  subscription: (db, ids) => db.select({ id: subscriptions.id, name: deployments.name }).from(subscriptions).innerJoin(deployments, eq(deployments.id, subscriptions.deploymentId)).where(inArray(subscriptions.id, ids)),
  task: (db, ids) => db.select({ id: deploymentTasks.id, name: deployments.name }).from(deploymentTasks).innerJoin(deployments, eq(deployments.id, deploymentTasks.deploymentId)).where(inArray(deploymentTasks.id, ids)),
  planGroup: (db, ids) => db.select({ id: planGroups.id, name: planGroups.name }).from(planGroups).where(inArray(planGroups.id, ids)),
  // An analytics dashboard is its server's; a dashboard user is a user.
  analyticsTenant: (db, ids) => db.select({ id: analyticsTenants.id, name: deployments.name }).from(analyticsTenants).innerJoin(deployments, eq(deployments.id, analyticsTenants.deploymentId)).where(inArray(analyticsTenants.id, ids)),
  analyticsApp: (db, ids) => db.select({ id: analyticsApps.id, name: analyticsApps.name }).from(analyticsApps).where(inArray(analyticsApps.id, ids)),
  analyticsMember: (db, ids) => db.select({ id: analyticsMembers.id, name: users.email }).from(analyticsMembers).innerJoin(users, eq(users.id, analyticsMembers.userId)).where(inArray(analyticsMembers.id, ids)),
  analyticsReport: (db, ids) => db.select({ id: analyticsReports.id, name: analyticsReports.title }).from(analyticsReports).where(inArray(analyticsReports.id, ids)),
  quote: (db, ids) => db.select({ id: quotes.id, name: quotes.number }).from(quotes).where(inArray(quotes.id, ids)),
};

/**
 * The names of a page's targets and companies, one query per target type on the page (a page is
 * at most a few hundred rows, every lookup by primary key), so the log reads "Acme" rather than a UUID.
 */
async function namesOf(db: Db, rows: LogRecord[]): Promise<Names> {
  const wanted = new Map<AuditTargetType, Set<string>>();
  const want = (type: AuditTargetType, id: string | null) => {
    if (!id || !UUID.test(id) || !NAMED_TARGETS[type]) return;
    wanted.set(type, (wanted.get(type) ?? new Set()).add(id));
  };
  for (const r of rows) {
    want(r.targetType, r.targetId);
    want('company', r.companyId);
  }
  const found = await Promise.all([...wanted].map(async ([type, ids]) => ((await NAMED_TARGETS[type]?.(db, [...ids])) ?? []).map((n) => [`${type}:${n.id}`, n.name] as const)));
  return new Map(found.flat());
}

/** A target gone from its table (a deleted user, a revoked invitation) by the name or email its entry recorded. */
function recordedName(r: LogRecord): string | null {
  for (const side of [r.before, r.after]) {
    if (!side || typeof side !== 'object') continue;
    const fields = side as Record<string, unknown>;
    for (const key of ['name', 'email', 'title']) {
      const value = fields[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  // A scheduled job's id is its name.
  return r.targetType === 'job' ? r.targetId : null;
}

const logsTable = (db: Db): AdminTable<LogSortField, AuditLogRow> => ({
  sortColumns: {
    at: { column: auditLogs.at, type: 'timestamptz' },
    _id: { column: auditLogs.id, type: 'uuid' },
    action: { column: auditLogs.action, type: 'text' },
    targetType: { column: auditLogs.targetType, type: 'text' },
    actorEmail: { column: sql`coalesce(${auditLogs.actorEmail}, '')`, type: 'text' },
  },
  id: auditLogs.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({ log: auditLogs, cursor: sql<string>`${cursor}` })
      .from(auditLogs)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    const names = await namesOf(db, rows.map((r) => r.log));
    return rows.map((r) => ({ row: toRow(r.log, names), cursor: r.cursor, id: r.log.id }));
  },
  count: (where, cap) => countUpTo(db, auditLogs, where, cap),
  estimate: plannerEstimate(db, 'audit_logs'),
  peek: FILTER_PEEK,
});

const endOfDay = (d: string) => new Date(d.length === 10 ? `${d}T23:59:59.999Z` : d);

function whereOf(query: LogListQuery): SQL | undefined {
  const f = query.filter ?? {};
  const actor = f.actor?.trim();
  return and(
    searchOver(query.q, [auditLogs.action, auditLogs.actorEmail, auditLogs.targetId]),
    query.ids ? (query.ids.length ? inArray(auditLogs.id, query.ids) : sql`false`) : undefined,
    f.targetType ? eq(auditLogs.targetType, f.targetType) : undefined,
    f.targetId ? eq(auditLogs.targetId, f.targetId) : undefined,
    // `user.lock` exactly, or `user.` for every action on users.
    f.action ? (f.action.endsWith('.') ? ilike(auditLogs.action, `${f.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : eq(auditLogs.action, f.action)) : undefined,
    actor ? (UUID.test(actor) ? eq(auditLogs.actorId, actor) : or(ilike(auditLogs.actorEmail, likePattern(actor)))) : undefined,
    f.from ? gte(auditLogs.at, new Date(f.from)) : undefined,
    f.to ? lte(auditLogs.at, endOfDay(f.to)) : undefined,
  );
}

export type AdminLogService = ReturnType<typeof createAdminLogService>;

/** The audit log, read-only: list, one entry, export. Nothing here writes (the table refuses edits). */
export function createAdminLogService({ db }: { db: Db }) {
  const table = logsTable(db);
  return {
    ...listAndExport({ db, resource: 'logs' }, table, whereOf, toExportRow),
    async get(actor: SessionUser, input: { id: string }): Promise<AuditLogRow> {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.id)) throw new AppError('NOT_FOUND');
      const [row] = await db.select().from(auditLogs).where(eq(auditLogs.id, input.id));
      if (!row) throw new AppError('NOT_FOUND');
      return toRow(row, await namesOf(db, [row]));
    },
  };
}
