import { isIP } from 'node:net';
import { z } from 'zod';
import { decideStartMode, NPM_START, PADDLE_KEYS, type PaymentsMode, type StartMode } from './startMode';

/** A proxy address: an IP, or an IP range in CIDR notation. */
const isProxyAddress = (entry: string) => {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
};

/** A DNS resolver as node's dns.setServers takes it: `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`. */
const isDnsServer = (entry: string) => {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(entry);
  const [address, port] = m ? [m[1] ?? '', m[2]] : [entry, undefined];
  return isIP(address) !== 0 && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535));
};

/**
 * Which proxies in front of us may set X-Forwarded-For: none (`false`), a number of hops, or a list
 * of proxy addresses. `true` (trust every hop) would let any client choose its own address and
 * walk around every per-IP limit, so it is refused rather than guessed at.
 */
const trustProxy = z
  .string()
  .transform((value, ctx): false | number | string[] => {
    const v = value.trim();
    if (v === 'false') return false;
    if (v === 'true') {
      ctx.addIssue({ code: 'custom', message: 'trusting every hop lets clients forge their address; give the number of proxies in front of the server (e.g. 1) or their addresses' });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isProxyAddress(e));
    if (bad.length) {
      ctx.addIssue({ code: 'custom', message: `not a hop count nor proxy addresses/CIDRs: ${bad.join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });

/** Every environment variable the server reads, parsed once. README.md documents each. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  PRODUCT_NAME: z.string().min(1).max(40).default('Beacon'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|memory:\/\/$)/, 'must be a postgres:// URL or memory://')
    .optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12).max(128).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce.number().int().positive().default(1024 * 1024),
  STATIC_DIR: z.string().min(1).default('./dist'),
  TRUST_PROXY: trustProxy.default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Slow clients must not hold the server: a whole request (headers and body) must arrive in
  // REQUEST_TIMEOUT_MS, its headers in HEADERS_TIMEOUT_MS; an idle keep-alive connection closes
  // after KEEP_ALIVE_TIMEOUT_MS, a connection with no traffic at all after CONNECTION_TIMEOUT_MS.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000),
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  CONTENT_URL: z.url().optional(),
  CONTENT_TOKEN: z.string().min(1).optional(),
  // Bearer token a Prometheus scraper sends to GET /metrics; unset, /metrics answers 404.
  METRICS_TOKEN: z.string().min(16).optional(),
  CONTENT_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
  SENTRY_DSN: z.url().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Beacon <no-reply@beacon.localhost>'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(7 * 24 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().positive().default(30),
  LOCKOUT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  VERIFY_TOKEN_TTL_MINUTES: z.coerce.number().int().positive().default(24 * 60),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().positive().default(60),
  MAGIC_LINK_TTL_MINUTES: z.coerce.number().int().positive().default(10),
  UNLOCK_TOKEN_TTL_MINUTES: z.coerce.number().int().positive().default(24 * 60),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(5),
  AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: z.coerce.number().int().positive().default(10),
  TWO_FACTOR_CHECKS_PER_15_MINUTES: z.coerce.number().int().positive().default(10),
  REAUTH_WINDOW_MINUTES: z.coerce.number().int().positive().max(60).default(10),
  /** SDK requests (/i, /i/bulk) per client IP and minute; a bulk call counts once. */
  INGEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  /** Dashboard API calls (/api/v1/analytics/...) per client IP and minute. */
  ANALYTICS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  DISCOUNT_CHECKS_PER_HOUR: z.coerce.number().int().positive().default(20),
  /** New orders (POST /deployments) per user and hour; each opens a transaction at Paddle. Retries of an order count once. */
  ORDERS_PER_USER_PER_HOUR: z.coerce.number().int().positive().default(60),
  SECRET_KEYS: z.string().min(1).optional(),
  INVITATIONS_PER_COMPANY_PER_DAY: z.coerce.number().int().positive().default(50),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  INTERCOM_SECRET: z.string().min(1).optional(),
  // The customer-support chat widget loads only when its app id is set (with INTERCOM_SECRET for the identity hash).
  // The dashboard's 30-minute call booking link, used when the content service gives none.
  CALL_BOOKING_URL: z.url({ protocol: /^https?$/ }).optional(),
  // The terms of service and privacy policy the sign-up boxes link to (/legal/terms, /legal/privacy).
  TERMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  PRIVACY_URL: z.url({ protocol: /^https?$/ }).optional(),
  // The affiliate program's page, opened from the user menu (SPEC §2); no menu entry when unset.
  AFFILIATE_URL: z.url({ protocol: /^https?$/ }).optional(),
  INTERCOM_APP_ID: z.string().regex(/^[a-z0-9]{1,32}$/i).optional(),
  INTERCOM_API_BASE: z.url().default('https://api-iam.intercom.io'),
  // Paddle Billing: all four of API key, webhook (notification) secret, client-side token and
  // product id, or none of them (then the local checkout stand-in takes payments; see README).
  PADDLE_ENV: z.enum(['sandbox', 'production']).default('sandbox'),
  PADDLE_API_KEY: z.string().min(1).optional(),
  PADDLE_WEBHOOK_SECRET: z.string().min(1).optional(),
  PADDLE_CLIENT_TOKEN: z.string().min(1).optional(),
  PADDLE_PRODUCT_ID: z.string().min(1).optional(),
  /** Paddle's API origin; derived from PADDLE_ENV unless set. */
  PADDLE_API_URL: z.url().optional(),
  /**
   * Without Paddle, the local checkout stand-in accepts test cards: on by default outside
   * production; in production only when set to true (a warning is logged at every start), else
   * paid orders are refused.
   */
  PAYMENTS_STAND_IN: z.enum(['true', 'false']).optional(),
  /** Set by `npm start` (scripts/start.mjs), not by operators: without NODE_ENV nor production settings, that start is the demo. */
  STARTED_BY: z.enum([NPM_START]).optional(),
  PADDLE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  /** Days a past-due server keeps running before the running-servers worker pauses it. */
  PAST_DUE_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /**
   * The seller on invoices: legal name, address lines ("|" between lines) and tax id. Required in
   * production (the start refuses without them, see startRefusals); elsewhere the name defaults
   * to the product name. An EU VAT id as the tax id places the seller in its country (taxTreatment).
   */
  SELLER_NAME: z.string().min(1).max(120).optional(),
  SELLER_ADDRESS: z.string().max(400).default(''),
  SELLER_TAX_ID: z.string().max(40).default(''),
  // Running servers: the worker, the queue, the mock-cloud provider and the schedules.
  /** Run the task worker and the schedules inside this process (false for API-only processes). */
  WORKER_ENABLED: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Tasks a worker process runs at once (different servers; one server's tasks run one at a time). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  QUEUE_POLL_MS: z.coerce.number().int().min(500).max(60_000).default(1_000),
  /** How often the queue looks for jobs whose worker died (no heartbeat) and retries them. */
  QUEUE_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** A running job's heartbeat; a job silent for this long is taken as lost and retried (pg-boss: >= 10). */
  TASK_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /** Attempts of one task (a worker that died counts as one) before it fails for good. */
  TASK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** First retry delay; later ones back off exponentially. */
  TASK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /** How long a step may wait for the provider (a machine booting) before the attempt fails. */
  TASK_WAIT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(7200).default(900),
  /** Time to change one's mind after DELETE: the server is terminated when it has passed. */
  DELETION_GRACE_SECONDS: z.coerce.number().int().min(0).default(7 * 24 * 3600),
  /** A terminated server can be restored (from its final snapshot) for this long. */
  RESTORE_WINDOW_SECONDS: z.coerce.number().int().min(0).default(30 * 24 * 3600),
  /**
   * Backup archives: a folder under DATA_DIR unless BACKUP_STORE_URL names an S3-compatible bucket
   * (`s3://bucket/prefix`); its endpoint (any S3-compatible store), region and keys beside it.
   */
  BACKUP_STORE_URL: z.string().regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be s3://bucket/prefix').optional(),
  BACKUP_STORE_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  BACKUP_STORE_REGION: z.string().min(1).default('us-east-1'),
  BACKUP_STORE_ACCESS_KEY_ID: z.string().min(1).optional(),
  BACKUP_STORE_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** How long a backup's download link works. */
  BACKUP_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(24 * 3600).default(15 * 60),
  /** Lifetime of the signed sign-in link to a server's dashboard (GET /auth/{product}-server). */
  SERVER_SIGNIN_TTL_SECONDS: z.coerce.number().int().min(5).max(600).default(60),
  /**
   * Where servers' own addresses are answered: the edge's HTTPS and HTTP ports when not 443 and 80
   * (a test's edge); the address then carries the port.
   */
  SERVER_ADDRESS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SERVER_ADDRESS_HTTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Where "Open dashboard" lands: `address`, the server's own address (an edge answers there:
   * README "Custom domains and HTTPS"), or `portal`, the portal's origin. Default: `address` when
   * PUBLIC_URL is https, else `portal` (a development machine without an edge).
   */
  SERVER_DASHBOARDS: z.enum(['address', 'portal']).optional(),
  /** Servers get <name>-<id>.<SERVER_DOMAIN_SUFFIX> as their default address. */
  SERVER_DOMAIN_SUFFIX: z.string().min(3).max(100).default('servers.beacon.localhost'),
  /**
   * The resolvers a custom domain's records are looked up at (verification, the daily re-check):
   * comma-separated `ip[:port]` (`[ipv6]:port`); unset, the system's (/etc/resolv.conf).
   */
  DNS_SERVERS: z
    .string()
    .max(500)
    .refine((v) => v.split(',').every((s) => isDnsServer(s.trim())), 'must be comma-separated ip[:port] or [ipv6]:port')
    .optional(),
  /** How long one DNS lookup may take before it counts as unanswered. */
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4_000),
  /**
   * The TLS edge (edge/Caddyfile): who may call its `ask` endpoint (GET /api/v1/edge/ask), which
   * says which names get a certificate. Loopback always may; EDGE_ADDRESSES adds the edge's
   * addresses (IPs or CIDRs) when it runs on another host; with EDGE_ASK_TOKEN set, the call must
   * also carry `token=<it>` in its query (the ask URL in the Caddyfile).
   */
  EDGE_ADDRESSES: z
    .string()
    .refine((v) => v.split(',').every((e) => isProxyAddress(e.trim())), 'must be IP addresses or CIDRs, comma-separated')
    .transform((v) => v.split(',').map((e) => e.trim()))
    .optional(),
  EDGE_ASK_TOKEN: z.string().min(16).max(200).optional(),
  /**
   * Where the edge answers TLS (host:port, e.g. 127.0.0.1:443): the server page's certificate
   * state comes from a handshake there for the server's name. Unset: the page says no edge is set up.
   */
  EDGE_TLS_ADDRESS: z
    .string()
    .regex(/^(\[[0-9a-f:]+\]|[a-z0-9.-]+):\d{1,5}$/i, 'must be host:port')
    .optional(),
  /** mock-cloud: a new or restarted machine's boot time. */
  MOCK_CLOUD_BOOT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** mock-cloud: latency of every call. */
  MOCK_CLOUD_CALL_MS: z.coerce.number().int().min(0).max(60_000).default(200),
  /** mock-cloud: probability (0–1) that a call fails, as clouds do now and then. */
  MOCK_CLOUD_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  /** mock-cloud: limit the failures to these calls (comma-separated, e.g. createMachine,snapshot); all when unset. */
  MOCK_CLOUD_FAILING_CALLS: z.string().max(500).optional(),
  /**
   * mock-cloud: servers whose name contains this text fail the first calls counted in
   * MOCK_CLOUD_FLAKY_CALLS, then work: a failure that a retry gets past, chosen by name.
   */
  MOCK_CLOUD_FLAKY_SERVERS: z.string().min(1).max(100).optional(),
  /** mock-cloud: `op:count` pairs for the flaky servers (comma-separated), e.g. createMachine:2. */
  MOCK_CLOUD_FLAKY_CALLS: z
    .string()
    .max(500)
    .regex(/^\s*\w+:\d+\s*(,\s*\w+:\d+\s*)*$/)
    .optional(),
  /**
   * Where a health check sends its probe of the SDK endpoint (Beacon's root, where /o/sdk answers).
   * Unset: the process's own listen address when it listens (the API with its worker inside),
   * else PUBLIC_URL (a worker alone, `npm run worker`, reaches the API there).
   */
  HEALTH_PROBE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long each probe of a health check may take before it counts as failed. */
  HEALTH_PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** A server's queued task, dashboard job or email report waiting longer than this makes its health check fail. */
  HEALTH_JOBS_LATE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(15),
  /**
   * A restart first drains the server: ingestion answers 503 with Retry-After, and the restart
   * waits this long for every process to see it (their ingest caches keep a server's state up to
   * 5 s) and for requests already accepted to be written.
   */
  RESTART_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(6_000),
  /** Schedules (cron, UTC). */
  // Hourly: each server's backup option decides whether this run takes its snapshot.
  BACKUP_CRON: z.string().min(9).default('0 * * * *'),
  HEALTH_CHECK_CRON: z.string().min(9).default('*/15 * * * *'),
  MAU_SAMPLE_CRON: z.string().min(9).default('0 * * * *'),
  TERMINATION_CRON: z.string().min(9).default('* * * * *'),
  PAST_DUE_CRON: z.string().min(9).default('*/30 * * * *'),
  /** The analytics dashboards' email reports: each run sends the reports whose time has come. */
  ANALYTICS_REPORTS_CRON: z.string().min(9).default('* * * * *'),
  /** Orders never paid: reminder mails, then removal (PENDING_ORDER_CLEANUP_DAYS). */
  PENDING_ORDERS_CRON: z.string().min(9).default('0 * * * *'),
  /** Verified custom domains' DNS records, looked up again daily (DOMAIN_RECHECK_GRACE_DAYS). */
  DOMAIN_RECHECK_CRON: z.string().min(9).default('30 4 * * *'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** Origin the product is reached at; links in mails are built from it, never from Host. */
  publicUrl: string;
  /** How paid orders are paid: Paddle, the local stand-in, or not at all (then they are refused). */
  payments: PaymentsMode;
  /** Production, a demo (a bare `npm start`), development or test: server/startMode.ts decides. */
  mode: StartMode;
  /** Why the mode and payments are what they are, as the log says at every start. */
  modeReasons: string[];
  /** Where "Open dashboard" lands (SERVER_DASHBOARDS, or its default). */
  serverDashboards: 'address' | 'portal';
}

export class ConfigError extends Error {}

/**
 * Settings a production start cannot do without: mail (without it every mailed link would sit in
 * the outbox table, which production never shows) and the seller every invoice names.
 */
export const PRODUCTION_REQUIRED = ['SMTP_URL', 'SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_TAX_ID'] as const;

/** What a start of this configuration lacks (one line per missing setting); none outside production. */
export function startRefusals(config: Config): string[] {
  if (config.mode !== 'production') return [];
  return PRODUCTION_REQUIRED.filter((key) => !config[key]?.trim()).map((key) => `  ${key}: required in production (${config.modeReasons[0] ?? 'production'})`);
}

/**
 * The configuration of a process that starts (the API, the worker): loadConfig, and in production
 * a refusal (ConfigError, the process exits) when a required setting is missing.
 */
export function loadStartConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = loadConfig(env);
  const missing = startRefusals(config);
  if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}\nProduction sends mail through SMTP_URL and prints the seller's legal name, address and tax id on every invoice (README).`);
  return config;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset so `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema
    .refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, { path: ['HEADERS_TIMEOUT_MS'], message: 'must not exceed REQUEST_TIMEOUT_MS' })
    .refine((e) => PADDLE_KEYS.every((k) => e[k]) || PADDLE_KEYS.every((k) => !e[k]), { path: ['PADDLE_API_KEY'], message: `set all of ${PADDLE_KEYS.join(', ')} or none` })
    .safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const publicUrl = (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, '');
  const { mode, payments, reasons } = decideStartMode(cleaned);
  const serverDashboards = parsed.data.SERVER_DASHBOARDS ?? (publicUrl.startsWith('https:') ? 'address' : 'portal');
  return { ...parsed.data, publicUrl, payments, mode, modeReasons: reasons, serverDashboards };
}
