import { and, asc, count, desc, ilike, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { searchText } from '../db/search';
import { AppError } from '../errors';
import { recordAudit } from './audit';
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
  /** Matching rows; a big table may stop counting past `cap` (any answer above `cap` reads as "more than cap"). */
  count(where: SQL | undefined, cap: number): Promise<number>;
  /** The unfiltered total of a big table without counting it (see plannerEstimate); null: count. */
  estimate?: () => Promise<number | null>;
  /**
   * Rows a filtered page reads past its end (readPage): when the list ends within them, the rows
   * read give the total and no count runs. For tables whose rows need no per-row subquery.
   */
  peek?: number;
}

/** Platform admins only: the admin scope checks it too, the services do not rely on that. */
export function requirePlatformAdmin(actor: SessionUser): void {
  if (!actor.isAdmin) throw new AppError('FORBIDDEN');
}

/** `%text%` for ILIKE, with the pattern characters escaped so a search means what it says. */
export function likePattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search condition over some text columns (as one text, see db/search.ts), or nothing for an empty search. */
export function searchOver(q: string | undefined, columns: (SQL | AnyPgColumn)[]): SQL | undefined {
  if (!q?.trim()) return undefined;
  return ilike(searchText(columns), likePattern(q));
}

/** The sort column then the id, both one way, so an index on (column, id) reads the page in order, either way. */
function orderOf<F extends string, Row>(table: AdminTable<F, Row>, field: F, order: 'ASC' | 'DESC'): SQL[] {
  const { column } = table.sortColumns[field];
  const dir = order === 'ASC' ? asc : desc;
  return [dir(column), dir(table.id)];
}

/** A row's place in a sorted list: its sort value (as text) and its id. */
export interface Key {
  value: string;
  id: string;
}

/**
 * Where a page starts by keyset rather than offset: just after a row (next page), just before one
 * (previous page), or `before: null`, the end of the list (its last page). Each reads an index
 * range, however deep the page.
 */
export type PageAt = { after: Key } | { before: Key | null };

/** One page as the list answers it: the rows, the total (`bounded`: at least that many) and the keys of its first and last rows. */
export interface Page<Row> {
  rows: Row[];
  total: number;
  bounded: boolean;
  first: Key | null;
  last: Key | null;
}

/** A filtered list stops counting here: past it the pager shows "10,000+" and pages by keyset. */
export const COUNT_CAP = 10_000;

/** What the big tables' filtered pages read past their end (AdminTable.peek): a search matching up to five pages of ten costs one statement. */
export const FILTER_PEEK = 50;

/** The matching rows of one table, counted no further than `cap + 1`: a search matching half of 100,000 users costs a bounded scan. */
export async function countUpTo(db: Db, table: PgTable, where: SQL | undefined, cap: number): Promise<number> {
  const capped = db.select({ one: sql`1` }).from(table).where(where).limit(cap + 1).as('capped');
  return (await db.select({ n: count() }).from(capped))[0]?.n ?? 0;
}

/** The rows after `key` in the given order (the sort column, then the id). */
function beyond<F extends string, Row>(table: AdminTable<F, Row>, field: F, order: 'ASC' | 'DESC', key: Key): SQL {
  const { column, type } = table.sortColumns[field];
  const value = sql`cast(${key.value} as ${sql.raw(type)})`;
  // Sort columns are never null (nullable ones are coalesced), so row comparison is exact.
  return order === 'ASC' ? sql`(${column}, ${table.id}) > (${value}, ${key.id}::uuid)` : sql`(${column}, ${table.id}) < (${value}, ${key.id}::uuid)`;
}

/**
 * One page: by keyset when `at` says where (next, previous, last), else by offset as
 * ra-data-simple-rest asks (the first pages, a jump). The total comes with it for Content-Range:
 * the planner's estimate for a big unfiltered table, the rows read when a filtered page by offset
 * reaches the list's end within its peek, else a count that stops past COUNT_CAP.
 */
export async function readPage<F extends string, Row>(table: AdminTable<F, Row>, where: SQL | undefined, sort: [F, 'ASC' | 'DESC'], range: [number, number], at?: PageAt): Promise<Page<Row>> {
  const [field, order] = sort;
  const cursor = sql`${table.sortColumns[field].column}::text`;
  const backwards = at !== undefined && 'before' in at;
  const key = at === undefined ? null : 'after' in at ? at.after : at.before;
  // Backwards reads the rows before the key nearest first, then turns them around.
  const read = backwards ? (order === 'ASC' ? 'DESC' : 'ASC') : order;
  const total = async (): Promise<number> => {
    if (where === undefined && table.estimate) {
      const guess = await table.estimate();
      if (guess !== null) return guess;
    }
    return table.count(where, COUNT_CAP);
  };
  const limit = range[1] - range[0] + 1;
  const page = (extra: number) =>
    table.select({ where: key ? and(where, beyond(table, field, read, key)) : where, orderBy: orderOf(table, field, read), cursor, limit: limit + extra, offset: at ? 0 : range[0] });
  let rows: Awaited<ReturnType<typeof page>>;
  let n: number;
  // A search is two scans of its index, the page and the count: a filtered page by offset reads
  // `peek` rows more, and when the list ends within them (a search for someone, or for no one)
  // the rows before the page and those read are the whole list. A page past the end or by keyset
  // still counts, and a longer list counts after its page rather than beside it.
  const peek = where !== undefined && !at ? (table.peek ?? 0) : 0;
  if (peek) {
    const peeked = await page(peek);
    rows = peeked.slice(0, limit);
    const ended = peeked.length < limit + peek && (peeked.length > 0 || range[0] === 0);
    n = ended ? range[0] + peeked.length : await total();
  } else {
    [rows, n] = await Promise.all([page(0), total()]);
  }
  if (backwards) rows.reverse();
  const keyOf = (r: { cursor: string; id: string } | undefined) => (r ? { value: r.cursor, id: r.id } : null);
  const bounded = where !== undefined && n > COUNT_CAP;
  return { rows: rows.map((r) => r.row), total: bounded ? COUNT_CAP : n, bounded, first: keyOf(rows[0]), last: keyOf(rows[rows.length - 1]) };
}

/** Below this many rows an unfiltered list counts exactly; above, it answers the planner's estimate. */
export const ESTIMATE_FROM = 10_000;
const REANALYZE_MS = 60_000;

/**
 * The total of an unfiltered list without counting every row: Content-Range needs a total on every
 * page, and count(*) of 100,000 rows costs more than the page. For a table of ESTIMATE_FROM rows
 * or more it answers what the planner would: rows per page from the last statistics (reltuples /
 * relpages) times the pages the table has now, so growth since then shows. A smaller table is
 * counted (capped, so the check is cheap). Statistics missing or far off (PGlite has no
 * autovacuum) are gathered again by ANALYZE, at most once a minute per table and process.
 * The pager's last page can then be a few rows off on a big table; filtered lists stay exact.
 */
export function plannerEstimate(db: Db, relation: string): () => Promise<number | null> {
  let analyzedAt = 0;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const estimate = async () =>
    Number(
      (
        await rows<{ n: number | string | null }>(sql`
          select case when c.reltuples >= 0 and c.relpages > 0
            then c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::int) end as n
          from pg_class c where c.oid = to_regclass(${relation})`)
      )[0]?.n ?? -1,
    );
  return async () => {
    const guess = await estimate();
    if (guess >= ESTIMATE_FROM) return Math.round(guess);
    const capped = Number((await rows<{ n: number | string }>(sql`select count(*) as n from (select 1 from ${sql.identifier(relation)} limit ${ESTIMATE_FROM}) s`))[0]?.n ?? 0);
    if (capped < ESTIMATE_FROM) return capped;
    // Big, but the statistics say small or nothing: gather them again, or count this time.
    if (Date.now() - analyzedAt < REANALYZE_MS) return null;
    analyzedAt = Date.now();
    // A role that may not analyze the table (not its owner) counts instead.
    if (!(await db.execute(sql`analyze ${sql.identifier(relation)}`).then(() => true, () => false))) return null;
    const again = await estimate();
    return again >= ESTIMATE_FROM ? Math.round(again) : null;
  };
}

/**
 * Every matching row in batches read by keyset (sort value, id): each batch is one short query,
 * however deep into the list, and the database never holds a long transaction.
 */
export async function* readKeyset<F extends string, Row>(table: AdminTable<F, Row>, where: SQL | undefined, sort: [F, 'ASC' | 'DESC'], batchSize = 1000): AsyncGenerator<Row[]> {
  const [field, order] = sort;
  const cursor = sql`${table.sortColumns[field].column}::text`;
  let after: Key | null = null;
  for (;;) {
    const rows = await table.select({ where: and(where, after ? beyond(table, field, order, after) : undefined), orderBy: orderOf(table, field, order), cursor, limit: batchSize, offset: 0 });
    if (!rows.length) return;
    yield rows.map((r) => r.row);
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { value: last.cursor, id: last.id };
  }
}

/** The list and export every admin resource answers; `Out` is the row as the export file has it. */
export interface AdminListing<Q, Row, Out> {
  list(actor: SessionUser, input: { query: Q; range: [number, number]; at?: PageAt }): Promise<Page<Row>>;
  export(actor: SessionUser, input: { query: Q }): AsyncGenerator<Out[]>;
}

/** Where an admin list reads from: its database (for the export's audit row) and its resource name. */
export interface ListingSource {
  db: Db;
  resource: string;
}

/**
 * The list and export of an admin resource, for platform admins only, over its table and its
 * query's conditions. `exportRow` reshapes a row for the file when the list and the file differ.
 * An export is audited (`system.export`, the resource and the query) before its first row leaves:
 * a whole table of customer data leaving through support is a thing to be able to trace.
 */
export function listAndExport<F extends string, Row, Q extends ListQuery<F, unknown>>(source: ListingSource, table: AdminTable<F, Row>, whereOf: (query: Q) => SQL | undefined): AdminListing<Q, Row, Row>;
export function listAndExport<F extends string, Row, Q extends ListQuery<F, unknown>, Out>(source: ListingSource, table: AdminTable<F, Row>, whereOf: (query: Q) => SQL | undefined, exportRow: (row: Row) => Out): AdminListing<Q, Row, Out>;
export function listAndExport<F extends string, Row, Q extends ListQuery<F, unknown>, Out>(source: ListingSource, table: AdminTable<F, Row>, whereOf: (query: Q) => SQL | undefined, exportRow?: (row: Row) => Out): AdminListing<Q, Row, Row | Out> {
  return {
    async list(actor, input) {
      requirePlatformAdmin(actor);
      return readPage(table, whereOf(input.query), input.query.sort, input.range, input.at);
    },
    export(actor, input) {
      requirePlatformAdmin(actor);
      const where = whereOf(input.query);
      const { sort, q, filter, ids } = input.query;
      return (async function* () {
        await recordAudit(source.db, { actor, action: 'system.export', targetType: 'system', targetId: source.resource, after: { resource: source.resource, sort, q: q ?? null, filter: filter ?? null, ids: ids ?? null } });
        const batches = readKeyset(table, where, sort);
        yield* exportRow ? mapBatches(batches, exportRow) : batches;
      })();
    },
  };
}

async function* mapBatches<Row, Out>(batches: AsyncGenerator<Row[]>, map: (row: Row) => Out): AsyncGenerator<Out[]> {
  for await (const batch of batches) yield batch.map(map);
}
