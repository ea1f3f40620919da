import type { Db } from './types';

const kept = new WeakMap<Db, Map<string, unknown>>();

/**
 * A hot read's statement, built once per database and run with placeholders. drizzle builds a query
 * (its SQL text, its parameters, its row mapping) on every call, and for a short read that cost the
 * server's thread more than the database spent answering it. `name` is the statement's name on
 * PostgreSQL too (prepared once per connection, planned as PostgreSQL sees fit): one per shape.
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
    statements.set(name, statement);
  }
  return statement;
}
