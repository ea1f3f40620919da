import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { seedFirstAdmin } from './db/seed';
import { stopOnSignals } from './shutdown';

/** The process that listens: builds the app, creates the first admin, shuts down gracefully. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp(config);

  const admin = await seedFirstAdmin(app.database.db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
  if (admin && 'skipped' in admin) {
    app.log.warn(
      { email: admin.email },
      'no platform admin exists, and an ordinary account already uses ADMIN_EMAIL: it was NOT made admin. Set ADMIN_EMAIL to an unused address and restart.',
    );
  } else if (admin?.generatedPassword) {
    // Printed once, on the start that created the account; only its hash is stored.
    console.log(`\n  Platform admin created\n    email:    ${admin.email}\n    password: ${admin.generatedPassword}\n  It must be changed at the first sign-in; it is not shown again.\n`);
  } else if (admin) {
    app.log.info({ email: admin.email }, 'platform admin created from ADMIN_EMAIL');
  }

  stopOnSignals(app, config.SHUTDOWN_TIMEOUT_MS);

  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`${config.PRODUCT_NAME} is running at ${config.publicUrl}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
