import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { Db } from './types';

const kept = new WeakMap<Db, Map<string, unknown>>();

/**
 * A hot read's statement, built once per database and run with placeholders. drizzle builds a query
 * (its SQL text, its parameters, its row mapping) on every call, and for a short read that cost the
 * server's thread more than the database spent answering it. `name` is the statement's name on
 * PostgreSQL too (prepared once per connection, planned as PostgreSQL sees fit): one per shape.
 * Its rows are mapped by mapRowsOnce.
 */
export function prepared<T>(db: Db, name: string, build: () => T): T {
  let statements = kept.get(db);
  if (!statements) {
    statements = new Map();
    kept.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build();
    mapRowsOnce(statement);
    statements.set(name, statement);
  }
  return statement;
}

/** What a drizzle prepared query keeps of its selection (private in its types, the same on both drivers). */
interface Selection {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}
type Decoder = { mapFromDriverValue(value: unknown): unknown };
/** An SQL expression's decoder (its mapWith), private in drizzle's types. */
const decoderOfSql = (expression: SQL) => (expression as unknown as { decoder: Decoder }).decoder;

/** The decoder drizzle's mapResultRow picks for a selected field. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field._ as unknown as { sql: SQL }).sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}

/**
 * Gives a prepared select drizzle's own row mapping (nested objects, a left join's all-null part
 * as null) with each column's decoder and place found once. drizzle's mapResultRow finds them for
 * every field of every row, by walking class chains: on a page of servers, a sixth of the
 * server's thread. Statements without a selection (writes) are left as they are.
 */
function mapRowsOnce(statement: unknown): void {
  const selection = statement as Selection;
  const { fields, joinsNotNullableMap: notNullable } = selection;
  if (!fields || selection.customResultMapper) return;
  // Columns of a nested object (a joined table's) find it by number: no path walk per field.
  const objects: string[] = [];
  const columns = fields.map(({ path, field }) => {
    const parents = path.slice(0, -1);
    if (parents.length === 1 && !objects.includes(parents[0] as string)) objects.push(parents[0] as string);
    return {
      parents,
      object: parents.length === 1 ? objects.indexOf(parents[0] as string) : -1,
      key: path[path.length - 1] ?? '',
      decoder: decoderOf(field),
      // For a joined table's column (its object, then its name): the table, to null an all-null join.
      table: notNullable && path.length === 2 && is(field, Column) ? getTableName(field.table) : null,
    };
  });
  // drizzle nulls a joined object when its first column is null and all its columns are one
  // table's (a left join that found nothing), unless that table is never missing.
  const nullable = objects.flatMap((name) => {
    const own = columns.flatMap((c, i) => (c.table !== null && c.parents[0] === name ? [{ i, table: c.table }] : []));
    const first = own[0];
    return first && own.every((c) => c.table === first.table) && !notNullable?.[first.table] ? [{ name, i: first.i }] : [];
  });
  selection.customResultMapper = (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      const nested: (Record<string, unknown> | undefined)[] = new Array(objects.length);
      for (let i = 0; i < columns.length; i++) {
        const { parents, object, key, decoder } = columns[i] as (typeof columns)[number];
        let node = result;
        if (object >= 0) node = nested[object] ??= (result[parents[0] as string] ??= {}) as Record<string, unknown>;
        else for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
        const raw = row[i];
        node[key] = raw === null ? null : decoder.mapFromDriverValue(raw);
      }
      for (const { name, i } of nullable) if (row[i] === null) result[name] = null;
      return result;
    });
}
