import { buildApp } from './app';
import type { Config } from './config';
import { seedFirstAdmin } from './db/seed';
import { stopOnSignals } from './shutdown';

/** Builds the app, creates the first admin, listens and stops gracefully on SIGTERM and SIGINT. */
export async function startServer(config: Config): Promise<void> {
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
  // A worker that cannot start ends the process, as it did when it started before listening.
  await app.worker?.start();
}
