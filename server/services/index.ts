import type { TFunction } from 'i18next';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { createMailer } from '../mail/mailer';
import { createAdminCompanyService } from './adminCompanies';
import { createAdminDeploymentService } from './adminDeployments';
import { createAdminDeploymentTaskService } from './adminDeploymentTasks';
import { createAdminJobService } from './adminJobs';
import { createAdminLogService } from './adminLogs';
import { createAdminPlanGroupService } from './adminPlanGroups';
import { createAdminUserService } from './adminUsers';
import { createAnalyticsService } from './analytics';
import { createAuthService } from './auth';
import { createCatalogueService } from './catalogue';
import { createHealthService } from './health';
import { createIdempotency } from './idempotency';
import { createSessionService } from './sessions';
import { createCompanyService } from './companies';
import { createContentService } from './content';
import { createFileService } from './files';
import { createGoogleVerifier } from './google';
import { createPricingService } from './pricing';
import { createProjectService } from './projects';
import { createRateCounters } from './rateCounters';
import { createKeyring, defaultSecretKeys } from './secrets';
import { createSigninGuard } from './signinGuard';
import { createToolsService } from './tools';
import { createTwoFactorService } from './twoFactor';
import { logUsageEventSink, type UsageEventSink } from './usageEvents';
import { createUserService } from './users';
import { createProviders } from '../providers';
import { startQueue } from '../worker/queue';
import { createWorker } from '../worker';
import { createDeploymentActions } from './deploymentActions';
import { createDeploymentReads } from './deploymentReads';
import { createProvisioning } from './provisioning';
import { createBillingService } from './billing';
import { createOrderService } from './orders';
import { createPaymentsService } from './payments';

export interface ServiceDeps {
  config: Config;
  database: Database;
  t: TFunction;
  log: FastifyBaseLogger;
  events?: UsageEventSink;
}

/**
 * Every service of the product, each made by its `createXService(deps)`; routes reach them as
 * `app.<name>` (decorated in app.ts). The one place that knows which service needs what.
 */
export async function createServices({ config, database, t, log, events }: ServiceDeps) {
  const { db } = database;
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logLinks: config.NODE_ENV === 'development' }, db, log);
  const keys = config.SECRET_KEYS ? { spec: config.SECRET_KEYS, source: 'config' } : defaultSecretKeys(config.DATA_DIR, config.DATABASE_URL);
  if (keys.source === 'file') log.warn('SECRET_KEYS is unset: using the key kept in DATA_DIR/secret-keys (set SECRET_KEYS in production, see SECURITY.md)');
  const keyring = createKeyring(keys.spec);
  const counters = createRateCounters(db);
  const twoFactor = createTwoFactorService(db, config.PRODUCT_NAME, keyring);
  await twoFactor.sealLegacySecrets();
  const google = createGoogleVerifier({ clientId: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL });
  const guard = createSigninGuard(db, keyring, config.LOCKOUT_THRESHOLD);
  // The task queue (every process sends); the worker runs here unless WORKER_ENABLED=false.
  const queue = await startQueue({ database, config, log, worker: config.WORKER_ENABLED });
  const providers = createProviders({ db, config });
  const provisioning = createProvisioning(queue);
  const payments = createPaymentsService({ db, config, counters, t, log, hooks: provisioning });
  const mailing = { mailer, t, publicUrl: config.publicUrl };
  // Made here, started when the app is ready (app.ts).
  const worker = config.WORKER_ENABLED ? createWorker({ db, config, queue, providers, payments: payments.gateway, mailing, log }) : null;
  const analytics = createAnalyticsService({ db, mailing, changes: database.analyticsChanges, keyring, graceDays: config.PAST_DUE_GRACE_DAYS });
  // Version history: each dashboard records the first start of every version it runs.
  await analytics.recordRunningVersion();
  const deploymentActions = createDeploymentActions({ db, config, queue, keyring, payments: payments.gateway });
  const auth = createAuthService({ db, config, mailer, t, events: events ?? logUsageEventSink(log), twoFactor, google, guard, counters, changes: database.changes });
  return {
    queue,
    providers,
    worker,
    provisioning,
    payments,
    orders: createOrderService({ db, config, counters, gateway: payments.gateway, provisioning }),
    billing: createBillingService({ db, config, counters, t }),
    deploymentReads: createDeploymentReads({ db, config }),
    deploymentActions,
    mailer,
    keyring,
    counters,
    twoFactor,
    content: createContentService({ url: config.CONTENT_URL, token: config.CONTENT_TOKEN, timeoutMs: config.CONTENT_TIMEOUT_MS }),
    auth,
    companies: createCompanyService({ db, config, mailer, t }),
    users: createUserService({ db }),
    catalogue: createCatalogueService({ db }),
    idempotency: createIdempotency(db),
    sessions: createSessionService({ db }),
    health: createHealthService({ database }),
    pricing: createPricingService({ db, counters, discountChecksPerHour: config.DISCOUNT_CHECKS_PER_HOUR }),
    files: createFileService({ db }),
    adminUsers: createAdminUserService({ db, counters, sendVerification: (user) => auth.resendVerification(user) }),
    adminCompanies: createAdminCompanyService({ db }),
    adminDeployments: createAdminDeploymentService({ db, config, actions: deploymentActions }),
    adminDeploymentTasks: createAdminDeploymentTaskService({ db, queue }),
    adminJobs: createAdminJobService({ db, config, queue }),
    adminLogs: createAdminLogService({ db }),
    adminPlanGroups: createAdminPlanGroupService({ db }),
    projects: createProjectService({ db }),
    analytics,
    tools: createToolsService({ db, config, mailer, t, counters }),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
