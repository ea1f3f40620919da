import { z } from 'zod';
import { BILLING_CYCLES, DEFAULTS } from '../constants';
import { latestTaskSchema, deploymentTaskDtoSchema } from './tasks';
import { DEPLOYMENT_STATUSES, planConfigSchema, subscriptionDtoSchema } from '../orders/schemas';
import { mauForecastSchema } from '../usage/forecast';

/** A server as the deployments list and the wizard's edit mode read it. */
export const deploymentDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  flags: z.object({ free: z.boolean() }),
  company: z.string(),
  project: z.string(),
  provider: z.object({ _id: z.string(), code: z.string().nullable() }),
  subscription: z.object({ plan: z.string(), planCode: z.string(), planConfig: planConfigSchema, payment: z.object({ term: z.object({ cycle: z.enum(BILLING_CYCLES) }) }) }),
  billing: subscriptionDtoSchema,
  createdAt: z.string(),
});
export type DeploymentDto = z.infer<typeof deploymentDtoSchema>;

/* ---- Running servers: the populated server, backups, MAU, actions ---- */

/** SSL state of the server's address: none (plain http), pending (certificate being issued), active, failed. */
export const SSL_STATES = ['none', 'pending', 'active', 'failed'] as const;
export type SslState = (typeof SSL_STATES)[number];

/** SPEC §5 domain rule: labels of letters, digits and hyphens, then a 2 to 6 letter suffix. */
export const DOMAIN_PATTERN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,6}$/i;

/**
 * A custom domain is a paid option: a server may set or verify one only when the domain option it
 * has (codes of its domain-type options that its plan offers) is another than the hosted default.
 */
export const includesCustomDomain = (domainOptionCodes: readonly string[]): boolean => domainOptionCodes.some((code) => code !== DEFAULTS.domainCode);
/** Whether a server's options (as its view lists them) include a custom domain: screens offer the upgrade when not. */
export const optionsIncludeCustomDomain = (options: readonly { code: string; type: string }[]): boolean => includesCustomDomain(options.filter((o) => o.type === 'domain').map((o) => o.code));

/** A DNS record the customer adds so that a custom domain is verified and served (and keeps, as it is checked daily). */
export const domainVerificationSchema = z.object({ type: z.enum(['TXT', 'CNAME']), host: z.string(), value: z.string() });
export type DomainVerification = z.infer<typeof domainVerificationSchema>;

/**
 * The last DNS check of a custom domain that found its records wrong, with what it found against
 * what it expected (`findings`, one sentence per record): `failed`, a verification; `missing`, the
 * daily re-check of a verified domain (served until `stopsAt`); `stopped`, missing past that, the
 * domain no longer served. Given on the server's page (null in lists).
 */
export const DOMAIN_CHECK_STATES = ['failed', 'missing', 'stopped'] as const;
export const domainCheckSchema = z.object({ state: z.enum(DOMAIN_CHECK_STATES), at: z.string(), findings: z.string(), stopsAt: z.string().nullable() });
export type DomainCheck = z.infer<typeof domainCheckSchema>;

export const deploymentDomainSchema = z.object({
  /** The address the server answers at: the default one we give, or the customer's own. */
  name: z.string(),
  custom: z.boolean(),
  ssl: z.enum(SSL_STATES),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  /** For a custom domain: the records it needs (TXT for ownership; CNAME to point it at the server). */
  verification: z.array(domainVerificationSchema),
  check: domainCheckSchema.nullable(),
});
export type DeploymentDomain = z.infer<typeof deploymentDomainSchema>;

/** SPEC §3 mau history entry: one month of monthly active users. */
export const mauHistoryEntrySchema = z.object({ used: z.number(), startsAt: z.string(), endsAt: z.string(), subscriptionId: z.string().nullable() });
export type MauHistoryEntry = z.infer<typeof mauHistoryEntrySchema>;

export const HEALTH_STATES = ['unknown', 'healthy', 'unhealthy'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/**
 * A server with everything its page and the dashboard show: plan, region and options by name, the
 * domain and SSL, the task it is busy with (or did last), this month's MAU against the tier, and a
 * termination date while a deletion is scheduled.
 */
export const deploymentViewSchema = deploymentDtoSchema.extend({
  plan: z.object({ _id: z.string(), name: z.string(), code: z.string(), mau: z.number() }),
  region: z.object({ _id: z.string(), name: z.string() }).nullable(),
  features: z.array(z.object({ _id: z.string(), code: z.string(), name: z.string(), type: z.string() })),
  domain: deploymentDomainSchema.nullable(),
  /** The dashboard's address of the server once it has a machine, else null. */
  url: z.string().nullable(),
  latestTask: latestTaskSchema.nullable(),
  health: z.object({ state: z.enum(HEALTH_STATES), checkedAt: z.string().nullable() }),
  /** This month's MAU, the tier, and where the month is heading (null before the first sample). */
  mau: z.object({ used: z.number(), limit: z.number(), forecast: mauForecastSchema.nullable() }),
  /** DELETE schedules the termination at this time; cancel-termination clears it. */
  terminationScheduledAt: z.string().nullable(),
  /** A deleted server can be restored until then. */
  restorableUntil: z.string().nullable(),
  /** Whether the server has a backup option (backups at the frequency the option names). */
  backupsEnabled: z.boolean(),
  /** A change of plan that costs money, waiting for its payment: until paid the server keeps `plan`. */
  pendingPlan: z.object({ _id: z.string(), name: z.string(), code: z.string() }).nullable(),
});
export type DeploymentView = z.infer<typeof deploymentViewSchema>;

/** GET /deployments/{id}/populated: the view plus the MAU history (SPEC §3), oldest first. */
export const deploymentPopulatedSchema = deploymentViewSchema.extend({ mauHistory: z.array(mauHistoryEntrySchema) });
export type DeploymentPopulated = z.infer<typeof deploymentPopulatedSchema>;

/** GET /deployments/by-company/{company}?count=1 answers the number only (deployments empty). */
export const byCompanyQuerySchema = z.object({ count: z.enum(['0', '1', 'true', 'false']).optional() });
export const byCompanyAnswerSchema = z.object({ count: z.number(), deployments: z.array(deploymentViewSchema) });
export type ByCompanyAnswer = z.infer<typeof byCompanyAnswerSchema>;

export const BACKUP_KINDS = ['nightly', 'hourly', 'manual', 'final'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/**
 * What each backup option of the catalogue delivers: a scheduled snapshot every `everyHours`,
 * kept `keepDays` (the catalogue's descriptions say the same). Daily snapshots keep the kind
 * `nightly` they always had; an unknown backup option is taken as daily.
 */
export interface BackupSchedule {
  kind: Extract<BackupKind, 'nightly' | 'hourly'>;
  everyHours: number;
  keepDays: number;
}
const DAILY_BACKUPS: BackupSchedule = { kind: 'nightly', everyHours: 24, keepDays: 7 };
export const BACKUP_SCHEDULES: Record<string, BackupSchedule> = {
  'backup.daily': DAILY_BACKUPS,
  'backup.hourly': { kind: 'hourly', everyHours: 1, keepDays: 7 },
};
export const backupScheduleOf = (code: string): BackupSchedule => BACKUP_SCHEDULES[code] ?? DAILY_BACKUPS;
/** A run of the hourly schedule a few minutes late still takes the next backup on time. */
export const BACKUP_SLACK_MINUTES = 10;
export const BACKUP_STATUSES = ['pending', 'completed', 'failed'] as const;

/** One table of a backup archive: its part's name and row count. */
export interface BackupTableSummary {
  table: string;
  rows: number;
}
/** What a completed backup holds (the archive's manifest without its checksums). */
export interface BackupManifestSummary {
  schemaVersion: number;
  tables: BackupTableSummary[];
}

export const HEALTH_PROBES = ['sdk', 'read', 'jobs'] as const;
/** One probe of a health check: the SDK endpoint, a read of the tenant's data, its queued jobs. */
export interface HealthProbe {
  name: (typeof HEALTH_PROBES)[number];
  ok: boolean;
  latencyMs: number;
  detail: string | null;
}
export const healthProbeSchema = z.object({ name: z.enum(HEALTH_PROBES), ok: z.boolean(), latencyMs: z.number(), detail: z.string().nullable() }) satisfies z.ZodType<HealthProbe>;
/** One health check of a server (GET /deployments/{id}/health-checks): its probes with their latency, and why it failed. */
export const healthCheckDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  /** The task that ran it (a requested check, a restart's last step); null for the scheduled checks. */
  taskId: z.string().nullable(),
  healthy: z.boolean(),
  probes: z.array(healthProbeSchema),
  /** Why it is unhealthy, e.g. "ingestion answered 503 for 3 checks"; null when healthy. */
  reason: z.string().nullable(),
  checkedAt: z.string(),
});
export type HealthCheckDto = z.infer<typeof healthCheckDtoSchema>;
export const backupDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  /** nightly or hourly (scheduled), manual, or final (taken before a deleted server's machine is destroyed). */
  kind: z.enum(BACKUP_KINDS),
  status: z.enum(BACKUP_STATUSES),
  sizeBytes: z.number().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** The instant the data was read: a restore brings back the data as it stood then. */
  takenAt: z.string().nullable(),
  /** Why a failed backup failed. */
  error: z.string().nullable(),
  /** Whether its archive can be restored and downloaded (backups from before archives cannot). */
  restorable: z.boolean(),
});
export type BackupDto = z.infer<typeof backupDtoSchema>;

/** POST /deployments/{id}/backups/{backupId}/download: a signed link to the archive, valid until expiresAt. */
export const backupDownloadLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type BackupDownloadLink = z.infer<typeof backupDownloadLinkSchema>;
/** GET /backups/download: the signed link's claims. */
export const backupDownloadQuerySchema = z.object({ backup: z.string().max(64), exp: z.string().regex(/^\d{1,12}$/), sig: z.string().max(200) });
export type BackupDownloadQuery = z.infer<typeof backupDownloadQuerySchema>;

const optionalId = z.string().trim().min(1, 'validation.required').max(64, 'validation.invalid').optional();

/** POST /deployments/{id}/restore: from a backup, or (no backupId) a deleted server within its window. */
export const restoreBodySchema = z.object({ backupId: optionalId });
export type RestoreBody = z.infer<typeof restoreBodySchema>;

/**
 * POST /deployments/{id}/update-domain: a custom domain, or null to go back to the default one. The
 * name's rules (customDomain.ts) are checked by the service, each refusal with its own code.
 */
export const updateDomainBodySchema = z.object({
  domain: z.string().trim().toLowerCase().max(1000, 'validation.domain').nullable().optional(),
});
export type UpdateDomainBody = z.infer<typeof updateDomainBodySchema>;
/** removeSSL=true serves the domain without a certificate (plain http). */
export const updateDomainQuerySchema = z.object({ removeSSL: z.enum(['true', 'false']).optional() });

/** Answer of every action: the server as it is now and the task queued for it (null when none). */
export const deploymentActionAnswerSchema = z.object({ deployment: deploymentViewSchema, task: deploymentTaskDtoSchema.nullable() });
export type DeploymentActionAnswer = z.infer<typeof deploymentActionAnswerSchema>;

/** GET /auth/{product}-server?deploymentId&userId. */
export const serverSignInQuerySchema = z.object({
  deploymentId: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid'),
  userId: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid'),
});
/** A short-lived signed link that signs the user in to the server's dashboard (opened via /redirect?server_url=). */
export const serverSignInAnswerSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type ServerSignInAnswer = z.infer<typeof serverSignInAnswerSchema>;

/** The product's name as it appears in the sign-in path: GET /auth/{productSlug}-server. */
export const productSlug = (productName: string) => productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'product';
/** The sign-in link's route path: the route and the read-only view's guard both build it from here. */
export const serverSignInPath = (productName: string) => `/auth/${productSlug(productName)}-server`;
