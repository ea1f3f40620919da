import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The tables of an analytics tenant, in the order a load inserts them (parents first), with how
 * a tenant's rows are found in each and what a load must check against rows outside the tenant.
 * `tests/api/backups.archive.test.ts` proves every `analytics_*` table of the schema is listed,
 * so a new table cannot be left out of the backups by accident.
 */
export interface TenantTable {
  table: string;
  /** How the tenant's rows are found: by `tenant_id`, by `app_id` of the tenant's apps, or the tenant row itself. */
  scope: 'tenant' | 'app' | 'self';
  /** The dump's order: the primary key, so the same data gives the same archive. */
  orderBy: string[];
  /** Columns never carried over (identity columns the target numbers itself). */
  skip?: string[];
  /** Rows kept only when this holds for the archived row `r` (a reference outside the tenant still exists). */
  keepIf?: string;
  /** Nullable references outside the tenant, emptied when the row they name is gone. */
  orphanable?: Record<string, string>;
  /** Only the rows within the tenant's raw-data retention (`t` is the tenant row). */
  withinRetention?: string;
}

const memberExists = (column: string) => `EXISTS (SELECT 1 FROM analytics_members m WHERE m.id = r.${column})`;

export const TENANT_TABLES: readonly TenantTable[] = [
  { table: 'analytics_tenants', scope: 'self', orderBy: ['id'] },
  { table: 'analytics_versions', scope: 'tenant', orderBy: ['version'] },
  // Dashboard users are company users: one whose portal account is gone does not come back.
  { table: 'analytics_members', scope: 'tenant', orderBy: ['id'], keepIf: 'EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id)' },
  {
    table: 'analytics_apps',
    scope: 'tenant',
    orderBy: ['id'],
    orphanable: { created_by: memberExists('created_by'), icon_file_id: 'EXISTS (SELECT 1 FROM files f WHERE f.id = r.icon_file_id)' },
  },
  { table: 'analytics_app_members', scope: 'app', orderBy: ['app_id', 'member_id'], keepIf: memberExists('member_id') },
  { table: 'analytics_events', scope: 'app', orderBy: ['app_id', 'key'] },
  { table: 'analytics_segment_values', scope: 'app', orderBy: ['app_id', 'event_key', 'segment', 'value'] },
  { table: 'analytics_event_groups', scope: 'app', orderBy: ['id'] },
  { table: 'analytics_overview_tiles', scope: 'app', orderBy: ['app_id', 'position'] },
  { table: 'analytics_daily_sessions', scope: 'app', orderBy: ['app_id', 'day'] },
  { table: 'analytics_daily_views', scope: 'app', orderBy: ['app_id', 'view', 'day'] },
  { table: 'analytics_daily_events', scope: 'app', orderBy: ['app_id', 'event_key', 'day', 'segment', 'value'] },
  { table: 'analytics_monthly_devices', scope: 'app', orderBy: ['app_id', 'month', 'device_id'] },
  { table: 'analytics_app_users', scope: 'app', orderBy: ['app_id', 'device_id'] },
  // Numbered by the target in the archive's order, so the export's order is kept.
  { table: 'analytics_raw_requests', scope: 'app', orderBy: ['id'], skip: ['id'], withinRetention: "x.last_at >= now() - make_interval(days => t.raw_retention_days)" },
  { table: 'analytics_request_hashes', scope: 'app', orderBy: ['app_id', 'hash'] },
  { table: 'analytics_drops', scope: 'app', orderBy: ['app_id', 'day', 'kind'] },
  { table: 'analytics_tokens', scope: 'tenant', orderBy: ['id'], keepIf: memberExists('owner_id') },
  { table: 'analytics_jobs', scope: 'tenant', orderBy: ['id'], orphanable: { created_by: memberExists('created_by') } },
  { table: 'analytics_reports', scope: 'tenant', orderBy: ['id'], orphanable: { created_by: memberExists('created_by') } },
];

/** Columns of the tenant row that belong to the target, never to the archive. */
export const TENANT_OWN_COLUMNS = ['id', 'deployment_id', 'health_key_hash', 'created_at'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tenant id checked before it is written into SQL text (cursors take no parameters on every driver). */
export function tenantLiteral(tenantId: string): string {
  if (!UUID.test(tenantId)) throw new Error(`not a tenant id: ${tenantId}`);
  return `'${tenantId.toLowerCase()}'`;
}

/** The rows of `spec` that belong to the tenant, as `FROM ... x WHERE ...` (alias x, tenant row t where needed). */
export function tenantRowsSql(spec: TenantTable, tenantId: string): string {
  const tenant = tenantLiteral(tenantId);
  const from = spec.withinRetention ? `${spec.table} x, analytics_tenants t` : `${spec.table} x`;
  const retention = spec.withinRetention ? ` AND t.id = ${tenant} AND ${spec.withinRetention}` : '';
  switch (spec.scope) {
    case 'self':
      return `${from} WHERE x.id = ${tenant}`;
    case 'tenant':
      return `${from} WHERE x.tenant_id = ${tenant}${retention}`;
    case 'app':
      return `${from} WHERE x.app_id IN (SELECT id FROM analytics_apps WHERE tenant_id = ${tenant})${retention}`;
  }
}

/** The rows a raw statement answers (both drivers answer `{ rows }`). */
export const rowsOf = async <T>(tx: Db, query: SQL): Promise<T[]> => ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
/** How many rows a raw write changed: node-postgres says `rowCount`, PGlite `affectedRows`. */
export const changedBy = async (tx: Db, query: SQL): Promise<number> => {
  const result = (await tx.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return result.rowCount ?? result.affectedRows ?? 0;
};
