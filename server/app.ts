import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createI18n } from '../i18n';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedCatalogue } from './db/seed';
import { registerErrorHandling } from './errors';
import { loggerOptions, type LoggerOption } from './logging';
import { createMailer } from './mail/mailer';
import { API_PREFIX, registerRouteSchemas } from './plugins/routeSchemas';
import { registerSecurity } from './plugins/security';
import { apiRoutes } from './routes';
import { createAuthService, type AuthService } from './services/auth';
import { createCompanyService, type CompanyService } from './services/companies';
import { createGoogleVerifier } from './services/google';
import { createTwoFactorService, type TwoFactorService } from './services/twoFactor';
import { createRateCounters, type RateCounters } from './services/rateCounters';
import { createKeyring, defaultSecretKeys, type Keyring } from './services/secrets';
import { createSigninGuard } from './services/signinGuard';
import { createContentService, type ContentService } from './services/content';
import { registerSpa } from './spa';
import { logUsageEventSink, type UsageEventSink } from './services/usageEvents';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    content: ContentService;
    auth: AuthService;
    twoFactor: TwoFactorService;
    companies: CompanyService;
    keyring: Keyring;
    counters: RateCounters;
  }
}

export { API_PREFIX };

/** The API's version in its OpenAPI document (the path's /v1 is its major version). */
const API_VERSION = '1.0.0';

export interface BuildOptions {
  /** An already opened database; otherwise one is opened from the config and closed with the app. */
  database?: Database;
  /** Where usage events go; the log by default. */
  events?: UsageEventSink;
  /** Log destination override, for tests that read the logs (redaction applies all the same). */
  logger?: LoggerOption;
}

/** TRUST_PROXY for Fastify: a hop count trusts the socket's peer and the next `hops - 1` entries. */
function trustProxy(setting: Config['TRUST_PROXY']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Builds the whole product as one Fastify app: the API under /api/v1 and the built web app on the
 * same origin. The database is opened, migrated and seeded before the app is returned.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, options.logger),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: trustProxy(config.TRUST_PROXY),
    // Slow clients cannot hold a connection: see the *_TIMEOUT_MS settings in config.ts.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // Node checks the header and request deadlines on this interval (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, Math.floor(config.HEADERS_TIMEOUT_MS / 4)),
    },
    genReqId: () => randomUUID(),
    // Keep-alive sockets without a request in flight are closed at shutdown; busy ones finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onIdleError: (err) => app.log.warn({ err }, 'idle database connection lost'),
    }));
  if (!options.database) app.addHook('onClose', () => database.close());
  await database.migrate();
  await seedCatalogue(database.db);

  const i18n = createI18n(config.PRODUCT_NAME);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('content', createContentService({ url: config.CONTENT_URL, token: config.CONTENT_TOKEN, timeoutMs: config.CONTENT_TIMEOUT_MS }));

  registerErrorHandling(app, i18n.t);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logLinks: config.NODE_ENV === 'development' }, database.db, app.log);
  const keys = config.SECRET_KEYS ? { spec: config.SECRET_KEYS, source: 'config' } : defaultSecretKeys(config.DATA_DIR, config.DATABASE_URL);
  if (keys.source === 'file') app.log.warn('SECRET_KEYS is unset: using the key kept in DATA_DIR/secret-keys (set SECRET_KEYS in production, see SECURITY.md)');
  const keyring = createKeyring(keys.spec);
  const counters = createRateCounters(database.db);
  app.decorate('keyring', keyring);
  app.decorate('counters', counters);
  const twoFactor = createTwoFactorService(database.db, config.PRODUCT_NAME, keyring);
  await twoFactor.sealLegacySecrets();
  app.decorate('twoFactor', twoFactor);
  const google = createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL });
  const guard = createSigninGuard(database.db, keyring, config.LOCKOUT_THRESHOLD);
  app.decorate('auth', createAuthService({ db: database.db, config, mailer, t: i18n.t, events: options.events ?? logUsageEventSink(app.log), twoFactor, google, guard, counters }));
  app.decorate('companies', createCompanyService({ db: database.db, config, mailer, t: i18n.t }));

  // Once closing, answers to requests still in flight end their keep-alive connection, so the
  // server can finish closing as soon as the last of them is sent.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await registerSecurity(app, config);
  await registerRouteSchemas(app, { title: config.PRODUCT_NAME, version: API_VERSION });
  await app.register(apiRoutes, { prefix: API_PREFIX });

  await registerSpa(app, config);
  return app;
}
