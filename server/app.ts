import { runInRequestContext } from './requestContext';
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { createI18n } from '../i18n';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { seedCatalogue } from './db/seed';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './errors';
import { loggerOptions, type LoggerOption } from './logging';
import { lazySerializers } from './plugins/lazySerializers';
import { API_PREFIX, registerRouteSchemas } from './plugins/routeSchemas';
import { registerMetrics } from './plugins/metrics';
import { registerSecurity } from './plugins/security';
import { routes } from './routes';
import { sdkCorsPlugin } from './plugins/sdkCors';
import { hostRoutingPlugin } from './plugins/hostRouting';
import { edgeRedirectPlugin } from './plugins/edgeRedirect';
import { composeApp, type Services } from './compose';
import { listenUrl } from './services/serverHealth';
import type { UsageEventSink } from './services/usageEvents';
import { registerLegalLinks, registerSpa } from './spa';

declare module 'fastify' {
  interface FastifyInstance extends Services {
    config: Config;
    database: Database;
    /** Compiles the answer serialisers no request has needed yet (see plugins/lazySerializers.ts). */
    warmSerializers(): Promise<void>;
  }
  interface FastifyContextConfig {
    /** False on hot reads that never write an audit row: they skip the request context. */
    requestContext?: boolean;
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
  const serializers = lazySerializers();
  const i18n = createI18n(config.PRODUCT_NAME);
  const app = Fastify({
    schemaController: { compilersFactory: serializers.compilersFactory },
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
    // Requests refused before any route runs answer the error envelope too, never quoting the request.
    frameworkErrors: frameworkErrors(i18n.t),
    clientErrorHandler: clientErrorHandler(i18n.t),
  });

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onBackgroundError: (err) => app.log.warn({ err }, 'database error outside a request (a lost idle connection, the embedded maintenance)'),
    }));
  await database.migrate();
  await seedCatalogue(database.db);

  app.decorate('config', config);
  app.decorate('warmSerializers', serializers.warm);
  app.addHook('onListen', (done) => {
    serializers.warm().catch((err: unknown) => app.log.error({ err }, 'an answer schema does not compile'));
    done();
  });
  app.decorate('database', database);

  registerErrorHandling(app, i18n.t);
  // Before the security hooks: an SDK path's refusals and preflights answer any origin too.
  await app.register(sdkCorsPlugin);
  // The rest of each request runs with its IP and id in scope, so services can audit without Fastify.
  // Hot reads that never audit opt out (`config: { requestContext: false }`): inside the context
  // every promise the request makes carries it, which costs a hot read a fifth of its time.
  app.addHook('onRequest', (request, _reply, done) =>
    request.routeOptions.config.requestContext === false ? done() : runInRequestContext({ ip: request.ip, requestId: request.id }, done),
  );
  // The worker inside this process sends its health probes to this process's own address once it listens.
  const services = await composeApp({ config, database, t: i18n.t, log: app.log, events: options.events, selfUrl: () => listenUrl(app.server.address()) });
  for (const name of Object.keys(services) as (keyof Services)[]) app.decorate(name, services[name] as never);
  // Every request by its Host: the portal, one server's own address, or nothing we serve.
  await app.register(hostRoutingPlugin, { hosts: services.serverHosts });
  // Behind the edge: plain HTTP at a server's address goes on to HTTPS unless the server removed SSL.
  await app.register(edgeRedirectPlugin, { edge: services.edge, config });
  app.addHook('onReady', (done) => {
    // The worker subscribes once the server listens (a quarter of a second on PGlite): the app
    // answers meanwhile, and jobs sent until then wait in the queue.
    setImmediate(() => services.worker?.start().catch((err: unknown) => app.log.fatal({ err }, 'the task worker did not start')));
    done();
  });
  // Mails still being written (sent after their answer) finish before the database closes.
  app.addHook('onClose', async () => {
    // Jobs in flight finish (or are left to be resumed) before the database closes.
    await (services.worker ?? services.queue).stop();
    await services.mailer.idle();
    if (!options.database) await database.close();
  });

  // Once closing, answers to requests still in flight end their keep-alive connection, so the
  // server can finish closing as soon as the last of them is sent.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await registerSecurity(app, config);
  // After security: /metrics gets its headers and rate limit like every route.
  await registerMetrics(app);
  // Answers over 1 kB go out brotli or gzip compressed when the browser accepts it; answers that
  // are compressed already (cached catalogue, built assets) are sent as they are. Request bodies
  // are never inflated: no compressed uploads to bound.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });
  await registerRouteSchemas(app, { title: config.PRODUCT_NAME, version: API_VERSION });
  // Every route, in its scope (public, customer, admin; the SDKs' at the root): routes/index.ts.
  await app.register(routes);
  // Raw events past their retention and old retry hashes go hourly; the timer never holds the process.
  const sweep = setInterval(() => void services.analytics.sweep().catch((err: unknown) => app.log.warn({ err }, 'analytics sweep failed')), 3_600_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  registerLegalLinks(app, config, i18n.t);
  await registerSpa(app, config, i18n.t);
  return app;
}
