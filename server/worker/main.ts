import pino from 'pino';
import { createI18n } from '../../i18n';
import { composeWorker } from '../compose';
import { ConfigError, loadStartConfig } from '../config';
import { openDatabase } from '../db/client';
import { LOG_HYGIENE } from '../logging';
import { seedCatalogue } from '../db/seed';

/**
 * `npm run worker`: the task worker as its own process, against PostgreSQL, so that N API
 * processes (WORKER_ENABLED=false) and M workers share one database. SIGTERM stops taking jobs and
 * lets the running ones finish (up to SHUTDOWN_TIMEOUT_MS); a killed worker's jobs are retried by
 * the others once their heartbeat stops.
 */
async function main() {
  let config;
  try {
    config = loadStartConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (!config.DATABASE_URL?.startsWith('postgres')) {
    console.error('The worker runs against PostgreSQL: set DATABASE_URL. With the embedded database the worker runs inside the server.');
    process.exit(1);
  }
  const log = pino({ level: config.LOG_LEVEL, base: { role: 'worker', pid: process.pid }, ...LOG_HYGIENE });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, onBackgroundError: (err) => log.warn({ err }, 'database error outside a request (a lost idle connection, the embedded maintenance)') });
  await database.migrate();
  await seedCatalogue(database.db);
  const { t } = createI18n(config.PRODUCT_NAME);
  const { worker, mailer } = await composeWorker({ config, database, t, log });
  await worker.start();

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping');
    setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS).unref();
    await worker.stop();
    await mailer.idle();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', (s) => void stop(s));
  process.on('SIGINT', (s) => void stop(s));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
