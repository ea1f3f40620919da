// Servers: deployments and their tasks, timeline, runtime state at the provider and backups.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { BackupKind, BackupManifestSummary, HealthProbe } from '../../../src/domain/deployments/schemas';
import { DEPLOYMENT_STATUSES, type PlanConfig } from '../../../src/domain/orders/schemas';
import { TASK_STATUSES, TASK_TYPES, type TaskStep } from '../../../src/domain/deployments/tasks';
import { id, createdAt, updatedAt } from './columns';
import { billingCycleEnum, plans, providers } from './catalogue';
import { companies, projects, users } from './accounts';

export const deploymentStatusEnum = pgEnum('deployment_status', DEPLOYMENT_STATUSES);

/**
 * Servers (SPEC §3 Deployment). `planConfig` holds the chosen options as ordered (region, size,
 * features, provider); `status` follows the SPEC §3 catalogue: 'provisioned' while a paid order
 * waits for its payment, 'initializing' once the order is settled and awaits provisioning.
 */
export const deployments = pgTable(
  'deployments',
  {
    id: id(),
    name: text('name').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    planCode: text('plan_code').notNull(),
    planConfig: jsonb('plan_config').$type<PlanConfig>().notNull(),
    paymentCycle: billingCycleEnum('payment_cycle').notNull(),
    /** flags.free: the server runs on a free plan. */
    free: boolean('free').notNull(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    status: deploymentStatusEnum('status').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deployments_company_project').on(t.companyId, t.projectId),
    // Admin server list: its sortable columns (its search spans the company too: no index serves it).
    index('deployments_name_id').on(t.name, t.id),
    index('deployments_plan_code_id').on(t.planCode, t.id),
    index('deployments_created_id').on(t.createdAt, t.id),
    // A company's list (newest first, or by name) and its capped count walk only the company's
    // live servers: without these, a small company's first page walked every company's servers.
    index('deployments_company_live_created').on(t.companyId, t.createdAt, t.id).where(sql`${t.status} <> 'deleted'`),
    index('deployments_company_live_name').on(t.companyId, t.name, t.id).where(sql`${t.status} <> 'deleted'`),
  ],
);

export const taskTypeEnum = pgEnum('task_type', TASK_TYPES);
export const taskStatusEnum = pgEnum('task_status', TASK_STATUSES);

/**
 * Deployment tasks (SPEC §3): every piece of work on a server. `seq` orders a server's tasks (they
 * run one at a time, in that order); `steps` is the log of steps done, so a task resumed after a
 * worker died skips what is already done. The queue (pg-boss) only carries wake-ups.
 */
export const deploymentTasks = pgTable(
  'deployment_tasks',
  {
    id: id(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    type: taskTypeEnum('type').notNull(),
    status: taskStatusEnum('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The platform admin the task is assigned to (SPEC §3), set only from the admin area. */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** The worker (process) that holds it or held it last; a claim never touches the assignee. */
    claimedBy: text('claimed_by'),
    /** What the task needs (the backup to restore, the domain to set...). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    steps: jsonb('steps').$type<TaskStep[]>().notNull().default([]),
    progress: integer('progress').notNull().default(0),
    lastError: text('last_error'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedByEmail: text('requested_by_email'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deployment_tasks_deployment_seq').on(t.deploymentId, t.seq),
    index('deployment_tasks_open').on(t.status).where(sql`status in ('queued', 'running')`),
    // Admin task list: its sortable columns.
    index('deployment_tasks_created_id').on(t.createdAt, t.id),
    index('deployment_tasks_attempts_id').on(t.attempts, t.id),
  ],
);

/** A server's timeline: every status change and every task's queuing, start, retry and end. */
export const deploymentEvents = pgTable(
  'deployment_events',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    fromStatus: deploymentStatusEnum('from_status'),
    toStatus: deploymentStatusEnum('to_status'),
    taskId: uuid('task_id'),
    taskType: taskTypeEnum('task_type'),
    message: text('message'),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
  },
  (t) => [index('deployment_events_deployment_at').on(t.deploymentId, t.at)],
);

/** What a server is at the provider: its machine, address, domain and SSL, health, deletion dates. */
export const deploymentRuntime = pgTable('deployment_runtime', {
  deploymentId: uuid('deployment_id')
    .primaryKey()
    .references(() => deployments.id, { onDelete: 'cascade' }),
  machineId: text('machine_id'),
  url: text('url'),
  defaultDomain: text('default_domain'),
  customDomain: text('custom_domain'),
  sslState: text('ssl_state').notNull().default('none'),
  /** The TXT value proving ownership of the custom domain (random, not a secret). */
  verificationToken: text('verification_token'),
  domainVerifiedAt: timestamp('domain_verified_at', { withTimezone: true }),
  healthState: text('health_state').notNull().default('unknown'),
  healthCheckedAt: timestamp('health_checked_at', { withTimezone: true }),
  terminationScheduledAt: timestamp('termination_scheduled_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  restorableUntil: timestamp('restorable_until', { withTimezone: true }),
  /** The final backup's id, taken before the machine of a deleted server was destroyed. */
  finalSnapshotId: text('final_snapshot_id'),
  updatedAt: updatedAt(),
});

export const deploymentBackups = pgTable(
  'deployment_backups',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<BackupKind>().notNull(),
    status: text('status').$type<'pending' | 'completed' | 'failed'>().notNull().default('pending'),
    /** The archive's real size in bytes. */
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    taskId: uuid('task_id'),
    /** Where the archive is in the backup store (server/backups/store.ts). */
    storeKey: text('store_key'),
    /** SHA-256 of the whole archive file, checked before a restore reads it. */
    sha256: text('sha256'),
    /** The archive's manifest without its checksums: schema version, tables and row counts. */
    manifest: jsonb('manifest').$type<BackupManifestSummary>(),
    /** The instant of the snapshot: what a restore brings back is the data as it stood then. */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    /** Why the backup failed, in words a customer can act on. */
    error: text('error'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('deployment_backups_deployment').on(t.deploymentId, t.createdAt), uniqueIndex('deployment_backups_task').on(t.taskId)],
);

/** Each health check's probes of the server's real path (SDK endpoint, a data read, its queued jobs) with their latency. */
export const deploymentHealthChecks = pgTable(
  'deployment_health_checks',
  {
    id: id(),
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id'),
    healthy: boolean('healthy').notNull(),
    probes: jsonb('probes').$type<HealthProbe[]>().notNull(),
    /** Why it is unhealthy ("ingestion answered 503 for 3 checks"); null when healthy. */
    reason: text('reason'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deployment_health_checks_deployment').on(t.deploymentId, t.checkedAt), uniqueIndex('deployment_health_checks_task').on(t.taskId)],
);
