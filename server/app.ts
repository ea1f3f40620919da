import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createI18n } from '../i18n';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedCatalogue } from './db/seed';
import { AppError, registerErrorHandling } from './errors';
import { loggerOptions, type LoggerOption } from './logging';
import { createMailer } from './mail/mailer';
import { formsPlugin } from './plugins/forms';
import { requestGuardsPlugin } from './plugins/requestGuards';
import { sessionPlugin } from './plugins/session';
import { authRoutes } from './routes/auth';
import { adminUserRoutes } from './routes/admin/users';
import { companyRoutes } from './routes/companies';
import { contentRoutes } from './routes/content';
import { deploymentRoutes } from './routes/deployments';
import { orderRoutes } from './routes/orders';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { planRoutes } from './routes/plans';
import { userRoutes } from './routes/users';
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

export const API_PREFIX = '/api/v1';

export interface BuildOptions {
  /** An already opened database; otherwise one is opened from the config and closed with the app. */
  database?: Database;
  /** Where usage events go; the log by default. */
  events?: UsageEventSink;
  /** Log destination override, for tests that read the logs (redaction applies all the same). */
  logger?: LoggerOption;
}

/** Origins the Content-Security-Policy allows beyond our own, derived from what is configured. */
function extraOrigins(config: Config) {
  const origin = (url?: string) => (url ? [new URL(url).origin] : []);
  // Google Identity Services: its script, its button and one-tap frames, and its styles.
  const gsi = config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/'] : [];
  return {
    img: origin(config.CONTENT_URL),
    connect: [...origin(config.SENTRY_DSN), ...gsi],
    script: config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/client'] : [],
    style: config.GOOGLE_CLIENT_ID ? ['https://accounts.google.com/gsi/style'] : [],
    frame: gsi,
  };
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
  await database.migrate();
  await seedCatalogue(database.db);

  const i18n = createI18n(config.PRODUCT_NAME);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('content', createContentService({ url: config.CONTENT_URL, token: config.CONTENT_TOKEN, timeoutMs: config.CONTENT_TIMEOUT_MS }));

  registerErrorHandling(app, i18n.t);
  await app.register(requestGuardsPlugin);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logLinks: config.NODE_ENV === 'development' }, database.db, app.log);
  // Mails still being written (sent after their answer) finish before the database closes.
  app.addHook('onClose', async () => {
    await mailer.idle();
    if (!options.database) await database.close();
  });
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

  const extra = extraOrigins(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...extra.script],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'", ...extra.style],
        // blob: for previews of a picture or logo before it is uploaded.
        imgSrc: ["'self'", 'data:', 'blob:', ...extra.img],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...extra.connect],
        frameSrc: extra.frame.length ? extra.frame : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense when the product is served over HTTPS.
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
    crossOriginEmbedderPolicy: false,
  });

  // Answers over 1 kB go out brotli or gzip compressed when the browser accepts it; answers that
  // are compressed already (cached catalogue, built assets) are sent as they are. Request bodies
  // are never inflated: no compressed uploads to bound.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });

  // Limits are per route (auth routes); answers go through the error handler as RATE_LIMITED.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new AppError('RATE_LIMITED', 429, 'errors.RATE_LIMITED', undefined, { after: context.after }),
  });

  await app.register(
    async (api) => {
      await api.register(sessionPlugin);
      await api.register(formsPlugin);
      api.addHook('onSend', async (_request, reply) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      });
      await api.register(healthRoutes);
      await api.register(planRoutes);
      await api.register(contentRoutes);
      await api.register(deploymentRoutes);
      await api.register(orderRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(companyRoutes);
      await api.register(adminUserRoutes);
      await api.register(fileRoutes);
    },
    { prefix: API_PREFIX },
  );

  await registerSpa(app, config, i18n.t);
  return app;
}
