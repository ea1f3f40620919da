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

/** A node of the row's shape: a column's place in the row, or an object of nodes by key. */
type Shape = { column: number } | { keys: Map<string, Shape>; nullWhen?: number };

/**
 * Gives a prepared select drizzle's own row mapping (nested objects, a left join's all-null part
 * as null), compiled once per statement into one function that builds each row as object
 * literals. drizzle's mapResultRow finds each column's decoder and place for every field of every
 * row (a sixth of the server's thread on a page of servers); a generic loop storing key by key
 * still cost a tenth of a page's read, one store site seeing fifty keys. The generated code holds
 * only the selection's own keys (quoted with JSON.stringify) and column numbers. Statements
 * without a selection (writes) are left as they are.
 */
function mapRowsOnce(statement: unknown): void {
  const selection = statement as Selection;
  const { fields, joinsNotNullableMap: notNullable } = selection;
  if (!fields || selection.customResultMapper) return;
  const root: Shape = { keys: new Map() };
  const decoders = fields.map(({ field }) => decoderOf(field));
  fields.forEach(({ path }, column) => {
    let node = root;
    for (const parent of path.slice(0, -1)) {
      let next = node.keys.get(parent);
      if (!next || 'column' in next) node.keys.set(parent, (next = { keys: new Map() }));
      node = next;
    }
    node.keys.set(path[path.length - 1] ?? '', { column });
  });
  // drizzle nulls a joined object when its first column is null and all its columns are one
  // table's (a left join that found nothing), unless that table is never missing.
  const tableOf = (column: number) => {
    const { path, field } = fields[column] as { path: string[]; field: unknown };
    return notNullable && path.length === 2 && is(field, Column) ? getTableName(field.table) : null;
  };
  for (const node of root.keys.values()) {
    if ('column' in node) continue;
    const own = [...node.keys.values()].flatMap((child) => {
      const table = 'column' in child ? tableOf(child.column) : null;
      return 'column' in child && table !== null ? [{ column: child.column, table }] : [];
    });
    const first = own[0];
    if (first && own.every((c) => c.table === first.table) && !notNullable?.[first.table]) node.nullWhen = first.column;
  }
  // Columns whose decoder is drizzle's identity are read as they come.
  const identity = Column.prototype.mapFromDriverValue;
  const value = (column: number) => `(row[${column}] === null ? null : ${decoders[column]?.mapFromDriverValue === identity ? `row[${column}]` : `dec[${column}].mapFromDriverValue(row[${column}])`})`;
  const literal = (node: Shape): string => {
    if ('column' in node) return value(node.column);
    const object = `{ ${[...node.keys].map(([key, child]) => `${JSON.stringify(key)}: ${literal(child)}`).join(', ')} }`;
    return node.nullWhen === undefined ? object : `(row[${node.nullWhen}] === null ? null : ${object})`;
  };
  const mapRow = new Function('dec', `return (row) => (${literal(root)});`)(decoders) as (row: unknown[]) => unknown;
  selection.customResultMapper = (rows) => rows.map(mapRow);
}
