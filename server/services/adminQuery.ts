import { and, asc, desc, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../errors';
import type { SessionUser } from './sessions';

/** What every admin list asks for: a whitelisted sort, the search text and the resource's filters. */
export interface ListQuery<F extends string, Filter = Record<string, never>> {
  sort: [F, 'ASC' | 'DESC'];
  q?: string;
  /** ra-data-simple-rest's getMany: `filter={"id":[...]}`. */
  ids?: string[];
  filter?: Filter;
}

/** A sortable column (never null: coalesce a nullable one): its SQL and the type its cursor text is cast back to for the keyset. */
export interface SortColumn {
  column: SQL | AnyPgColumn;
  type: 'uuid' | 'text' | 'timestamptz' | 'integer';
}

/** One admin table as the shared reader sees it; the resource says how to select and map. */
export interface AdminTable<F extends string, Row> {
  sortColumns: Record<F, SortColumn>;
  /** The id column: the tie-break that makes every order total and the keyset exact. */
  id: AnyPgColumn;
  /** Rows matching `where`, in `orderBy`, with the sort value as text (`cursor`) for the keyset. */
  select(input: { where: SQL | undefined; orderBy: SQL[]; cursor: SQL; limit: number; offset: number }): Promise<{ row: Row; cursor: string; id: string }[]>;
  count(where: SQL | undefined): Promise<number>;
}

/** Platform admins only: the admin scope checks it too, the services do not rely on that. */
export function requirePlatformAdmin(actor: SessionUser): void {
  if (!actor.isAdmin) throw new AppError('FORBIDDEN');
}

/** `%text%` for ILIKE, with the pattern characters escaped so a search means what it says. */
export function likePattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search condition over some text columns, or nothing for an empty search. */
export function searchOver(q: string | undefined, columns: (SQL | AnyPgColumn)[]): SQL | undefined {
  if (!q?.trim()) return undefined;
  const like = likePattern(q);
  return or(...columns.map((c) => ilike(c, like)));
}

function orderOf<F extends string, Row>(table: AdminTable<F, Row>, field: F, order: 'ASC' | 'DESC'): SQL[] {
  const { column } = table.sortColumns[field];
  return [order === 'ASC' ? asc(column) : desc(column), asc(table.id)];
}

/** One page (offset range, as ra-data-simple-rest asks) and the total for Content-Range. */
export async function readPage<F extends string, Row>(table: AdminTable<F, Row>, where: SQL | undefined, sort: [F, 'ASC' | 'DESC'], range: [number, number]) {
  const [field, order] = sort;
  const cursor = sql`${table.sortColumns[field].column}::text`;
  const [rows, total] = await Promise.all([table.select({ where, orderBy: orderOf(table, field, order), cursor, limit: range[1] - range[0] + 1, offset: range[0] }), table.count(where)]);
  return { rows: rows.map((r) => r.row), total };
}

/**
 * Every matching row in batches read by keyset (sort value, id): each batch is one short query,
 * however deep into the list, and the database never holds a long transaction.
 */
export async function* readKeyset<F extends string, Row>(table: AdminTable<F, Row>, where: SQL | undefined, sort: [F, 'ASC' | 'DESC'], batchSize = 1000): AsyncGenerator<Row[]> {
  const [field, order] = sort;
  const { column, type } = table.sortColumns[field];
  const cursor = sql`${column}::text`;
  let after: { value: string; id: string } | null = null;
  for (;;) {
    let cmp: SQL | undefined;
    if (after) {
      const value = sql`cast(${after.value} as ${sql.raw(type)})`;
      // Sort columns are never null (nullable ones are coalesced), so row comparison is exact.
      cmp = order === 'ASC' ? sql`(${column}, ${table.id}) > (${value}, ${after.id}::uuid)` : sql`((${column} < ${value}) or (${column} = ${value} and ${table.id} > ${after.id}::uuid))`;
    }
    const rows = await table.select({ where: and(where, cmp), orderBy: orderOf(table, field, order), cursor, limit: batchSize, offset: 0 });
    if (!rows.length) return;
    yield rows.map((r) => r.row);
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { value: last.cursor, id: last.id };
  }
}
