import { ConfigError, loadStartConfig } from './config';
import { copyFreshDatabase, embeddedDataDir, FRESH_DATABASE } from './db/freshCopy';

/**
 * The process that listens. This entry imports only the configuration and the first start's
 * database copy: the copy starts at once and runs on libuv's threads while the rest of the server
 * (most of a second of module loading) is imported.
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
  const dataDir = embeddedDataDir(config.DATABASE_URL, config.DATA_DIR);
  // Its failure (a full disk) comes back when the database opens and joins or repeats the copy.
  if (dataDir) copyFreshDatabase(FRESH_DATABASE, dataDir).catch(() => undefined);
  const { startServer } = await import('./start');
  await startServer(config);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
