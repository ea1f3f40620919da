import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The text an admin list searches (`%q%`, ILIKE): its columns joined by a space, nulls as empty.
 * One expression, so one trigram index per table serves the search (db/schema/ declares it over
 * the same columns in the same order as the service's searchOver call; otherwise it goes unused).
 */
export function searchText(columns: (SQL | AnyPgColumn)[]): SQL {
  return sql`(${sql.join(
    columns.map((c) => sql`coalesce(${c}, '')`),
    sql` || ' ' || `,
  )})`;
}
