import { createQuoteService } from './services/quotes';
import { createCompanyAccess } from './services/companyAccess';
import type { TFunction } from 'i18next';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { createMailer } from './mail/mailer';
import { createAdminCompanyService } from './services/adminCompanies';
import { createAdminDeploymentService } from './services/adminDeployments';
import { createAdminDeploymentTaskService } from './services/adminDeploymentTasks';
import { createAdminJobService } from './services/adminJobs';
import { createAdminLogService } from './services/adminLogs';
import { createAdminPlanGroupService } from './services/adminPlanGroups';
import { createAdminUserService } from './services/adminUsers';
import { BATCH_OPTIONS, createAnalyticsService, runDueReports } from '../analytics/server/services';
import { createAccountService } from './services/auth/account';
import { createRecoveryService } from './services/auth/recovery';
import { createAuthKit } from './services/auth/shared';
import { createSignInService } from './services/auth/signIn';
import { createTwoFactorSettingsService } from './services/auth/twoFactorSettings';
import { createCatalogueService } from './services/catalogue';
import { createHealthService } from './services/health';
import { createIdempotency } from './services/idempotency';
import { createSessionService } from './services/sessions';
import { createCompanyService, createMembers } from './services/companies';
import { createPlans } from './services/plans';
import { createContentService } from './services/content';
import { createFileService } from './services/files';
import { createGoogleVerifier } from './services/google';
import { createPricingService } from './services/pricing';
import { createProjectService } from './services/projects';
import { createRateCounters } from './services/rateCounters';
import { createKeyring, defaultSecretKeys } from './services/secrets';
import { createServerHealth } from './services/serverHealth';
import { createSigninGuard } from './services/signinGuard';
import { createToolsService } from './services/tools';
import { createTwoFactorService } from './services/twoFactor';
import { logUsageEventSink, type UsageEventSink } from './services/usageEvents';
import { createUserService } from './services/users';
import { createProviders } from './providers';
import { createBackupStore } from './backups/store';
import { createBackupDownloads } from './services/backupDownloads';
import { createServerHosts } from './services/serverHosts';
import { createEdgeService } from './services/edge';
import { startQueue } from './queue';
import { createWorker } from './worker';
import { createDeploymentActionService } from './services/deploymentActions';
import { createDeploymentReads } from './services/deploymentReads';
import { createProvisioning } from './services/provisioning';
import { createBillingService } from './services/billing';
import { createOrderService } from './services/orders';
import { createPasskeyService } from './services/passkeys';
import { createUsageService } from './services/usage';
import { createPaymentsService } from './services/payments';
import { createDevMailbox, devMailboxEnabled } from './services/devMailbox';
import { startModeLine } from './startMode';
import { createDeploymentBackupService } from './services/deploymentBackups';
import { createDomainRecheckService } from './services/domainRechecks';
import { createMauSampleService } from './services/mauSamples';
import { createPendingOrderService } from './services/pendingOrders';
import { createServerMailService } from './services/serverMail';
import { createServerScheduleService } from './services/serverSchedules';
import type { ScheduleServices } from './jobs/scheduled';

export interface ComposeDeps {
  config: Config;
  database: Database;
  t: TFunction;
  log: FastifyBaseLogger;
  events?: UsageEventSink;
  /** This process's listen address, once it listens (the API's): where its health checks send their SDK probe. */
  selfUrl?: () => string | null;
}

/**
 * The composition root: the one place that knows which service needs what. The API process
 * (`composeApp`, decorated onto the app in app.ts) and the worker process (`composeWorker`,
 * worker/main.ts) are both built here; services never build the worker or the queue.
 */

/** What both processes need below and beside the services: mail, the queue, the providers, payments. */
async function composeBase({ config, database, t, log, selfUrl }: ComposeDeps, role: 'api' | 'worker') {
  const { db } = database;
  // Said at every start, by the API and the worker alike: how this process runs and takes payments, and why.
  const start = startModeLine({ mode: config.mode, payments: config.payments, reasons: config.modeReasons });
  log[start.level]({ mode: config.mode, payments: config.payments }, start.message);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logLinks: role === 'api' && devMailboxEnabled(config) && config.mode !== 'test' }, db, log);
  const counters = createRateCounters({ db });
  // The task queue (every process sends); the worker supervises it and runs the schedules.
  const queue = await startQueue({ database, config, log, worker: role === 'worker' || config.WORKER_ENABLED });
  const providers = createProviders({ db, config });
  const backupStore = createBackupStore(config);
  const provisioning = createProvisioning({ queue });
  // The worker stops and resumes billing of terminated and restored servers: it needs payments too.
  const members = createMembers({ db, changes: database.changes });
  const plans = createPlans({ db });
  const payments = createPaymentsService({ db, members, config, counters, t, log, hooks: provisioning });
  const mailing = { mailer, t, publicUrl: config.publicUrl };
  // One keyring per process, built once: without SECRET_KEYS an in-memory database gets a throw-away
  // key, and the worker inside the API must derive the same health keys as the API checks.
  const keys = config.SECRET_KEYS ? { spec: config.SECRET_KEYS, source: 'config' } : defaultSecretKeys(config.DATA_DIR, config.DATABASE_URL);
  if (keys.source === 'file') log.warn('SECRET_KEYS is unset: using the key kept in DATA_DIR/secret-keys (set SECRET_KEYS in production, see SECURITY.md)');
  const keyring = createKeyring(keys.spec);
  const serverHealth = createServerHealth({ db, keyring, config, selfUrl: selfUrl ?? (() => null) });
  // What the schedules ask for the rows they act on (server/jobs/scheduled.ts).
  const schedules: ScheduleServices = {
    servers: createServerScheduleService({ db, queue }),
    backups: createDeploymentBackupService({ db, store: backupStore }),
    pendingOrders: createPendingOrderService({ db }),
    mau: createMauSampleService({ db }),
    domains: createDomainRecheckService({ db }),
    serverMail: createServerMailService({ db, publicUrl: config.publicUrl }),
    runDueReports: () => runDueReports(db, mailing, config.PAST_DUE_GRACE_DAYS),
  };
  return { db, members, plans, mailer, counters, queue, providers, backupStore, provisioning, payments, mailing, keyring, serverHealth, schedules };
}

type Base = Awaited<ReturnType<typeof composeBase>>;

const workerOf = ({ db, queue, providers, backupStore, payments, serverHealth, schedules, mailing }: Base, { config, log, database }: ComposeDeps) =>
  createWorker({ db, config, queue, providers, backups: backupStore, snapshot: database.snapshot, payments: payments.gateway, health: serverHealth, schedules, mailing, log });

/** The worker process: the worker and what it needs, nothing of the API. */
export async function composeWorker(deps: ComposeDeps) {
  const base = await composeBase(deps, 'worker');
  return { worker: workerOf(base, deps), mailer: base.mailer };
}

/** Every service of the API process; the in-process worker too unless WORKER_ENABLED=false (started in app.ts). */
export async function composeApp(deps: ComposeDeps) {
  const { config, database, t, log, events } = deps;
  const base = await composeBase(deps, 'api');
  const { db, members, plans, mailer, counters, queue, providers, backupStore, provisioning, payments, mailing, keyring, serverHealth, schedules } = base;
  const twoFactor = createTwoFactorService({ db, issuer: config.PRODUCT_NAME, keyring });
  await twoFactor.sealLegacySecrets();
  const google = createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL });
  const guard = createSigninGuard({ db, keyring, threshold: config.LOCKOUT_THRESHOLD });
  const idempotency = createIdempotency({ db });
  // Made here, started when the app is ready (app.ts).
  const worker = config.WORKER_ENABLED ? workerOf(base, deps) : null;
  const analytics = createAnalyticsService({ db, mailing, changes: database.analyticsChanges, keyring, graceDays: config.PAST_DUE_GRACE_DAYS, batch: BATCH_OPTIONS[database.kind], sessionPolicy: { idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS } });
  // Version history: each dashboard records the first start of every version it runs.
  await analytics.recordRunningVersion();
  const deploymentActions = createDeploymentActionService({ db, members, config, queue, keyring, payments: payments.gateway });
  const passkeys = createPasskeyService({ db, config, mailer, t });
  const usageEvents = events ?? logUsageEventSink(log);
  // One kit for the four auth services: one companies cache behind /auth/me.
  const kit = createAuthKit({ db, config, mailer, t, twoFactor, guard, counters, passkeys, changes: database.changes });
  const account = createAccountService({ db, events: usageEvents, guard, counters, kit });
  const serverHosts = createServerHosts({ db, config });
  const orders = createOrderService({ db, members, plans, config, counters, idempotency, gateway: payments.gateway, provisioning, log });
  return {
    queue,
    providers,
    serverHealth,
    schedules,
    backupStore,
    serverHosts,
    edge: createEdgeService({ db, members, config, hosts: serverHosts }),
    companyAccess: createCompanyAccess({ db, members }),
    backupDownloads: createBackupDownloads({ db, keyring, store: backupStore }),
    worker,
    provisioning,
    payments,
    orders,
    quotes: createQuoteService({ db, members, orders, config, mailer, t }),
    usage: createUsageService({ db, members, plans, review: orders.review, sellerTaxId: config.SELLER_TAX_ID }),
    billing: createBillingService({ db, members, config, counters, t, gateway: payments.gateway }),
    deploymentReads: createDeploymentReads({ db, members, config, serverChanges: database.serverChanges }),
    deploymentActions,
    mailer,
    keyring,
    counters,
    twoFactor,
    content: createContentService({ url: config.CONTENT_URL, token: config.CONTENT_TOKEN, timeoutMs: config.CONTENT_TIMEOUT_MS }),
    signIn: createSignInService({ db, events: usageEvents, google, guard, counters, passkeys, kit }),
    recovery: createRecoveryService({ db, guard, kit }),
    account,
    twoFactorSettings: createTwoFactorSettingsService({ twoFactor, counters, kit }),
    passkeys,
    companies: createCompanyService({ db, config, mailer, t }),
    users: createUserService({ db }),
    catalogue: createCatalogueService({ db, members }),
    idempotency,
    sessions: createSessionService({ db }),
    health: createHealthService({ database }),
    pricing: createPricingService({ db, members, plans, counters, discountChecksPerHour: config.DISCOUNT_CHECKS_PER_HOUR, sellerTaxId: config.SELLER_TAX_ID }),
    files: createFileService({ db }),
    adminUsers: createAdminUserService({ db, counters, sendVerification: (user) => account.resendVerification(user) }),
    adminCompanies: createAdminCompanyService({ db, payments: config.payments }),
    adminDeployments: createAdminDeploymentService({ db, config, actions: deploymentActions }),
    adminDeploymentTasks: createAdminDeploymentTaskService({ db, queue }),
    adminJobs: createAdminJobService({ db, config, queue }),
    adminLogs: createAdminLogService({ db }),
    adminPlanGroups: createAdminPlanGroupService({ db }),
    projects: createProjectService({ db, members }),
    analytics,
    tools: createToolsService({ db, config, mailer, t, counters }),
    devMailbox: createDevMailbox({ db, config, t }),
  };
}

export type Services = Awaited<ReturnType<typeof composeApp>>;
