import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

// Apart from client.ts so that what client.ts imports (the catalogue cache) can name it without a cycle.
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
