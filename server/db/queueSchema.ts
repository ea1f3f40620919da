import type { PGlite } from '@electric-sql/pglite';
import { PgBoss, fromPglite } from 'pg-boss';

/** pg-boss's own schema in our database (its job table is read for the admin's last runs). */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * Creates pg-boss's schema in a PGlite database and nothing else (the queues follow the start's
 * configuration): what the build's fresh database holds (db/freshDatabase.ts). It sits here, below
 * the worker, because the database layer never imports the worker.
 */
export async function createQueueSchema(pglite: PGlite): Promise<void> {
  const boss = new PgBoss({ schema: QUEUE_SCHEMA, supervise: false, schedule: false, migrate: true, registerInstance: false, db: fromPglite(pglite), backend: 'pglite' });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}
