import { and, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { redactSecrets, type AuditTargetType } from '../../src/domain/audit';
import type { AuditLogRow } from '../../src/domain/admin/schemas';
import type { Db } from '../db/client';
import { auditLogs } from '../db/schema';
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
  { id: 'targetId', header: 'Target' },
  { id: 'companyId', header: 'Company' },
  { id: 'ip', header: 'IP' },
  { id: 'before', header: 'Before' },
  { id: 'after', header: 'After' },
] as const;

type LogRecord = typeof auditLogs.$inferSelect;
const toRow = (r: LogRecord): AuditLogRow => ({
  _id: r.id,
  at: r.at.toISOString(),
  actorId: r.actorId,
  actorEmail: r.actorEmail,
  action: r.action,
  targetType: r.targetType,
  targetId: r.targetId,
  companyId: r.companyId,
  ip: r.ip,
  // Rows written before a secret was redacted at write time must not show it either.
  before: redactSecrets(r.before ?? null),
  after: redactSecrets(r.after ?? null),
});

/** The export flattens before and after to JSON text: one cell each. */
const toExportRow = (r: AuditLogRow) => ({ ...r, before: r.before ? JSON.stringify(r.before) : null, after: r.after ? JSON.stringify(r.after) : null });

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
    return rows.map((r) => ({ row: toRow(r.log), cursor: r.cursor, id: r.log.id }));
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
      return toRow(row);
    },
  };
}
