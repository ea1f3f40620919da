import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, fromDrizzle, fromPglite, type ConstructorOptions, type Job } from 'pg-boss';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { QUEUE_SCHEMA } from '../db/queueSchema';

/** A job handed to the queue: a wake-up for one server's tasks. Sent in the transaction that made the task. */
export interface TaskJob {
  deploymentId: string;
  taskId: string;
}

/** The queue as the services see it: sending a job through the caller's transaction. */
export interface TaskQueue {
  send(tx: Db, job: TaskJob): Promise<void>;
  /** A task that failed for good: its job's data is kept in the dead-letter queue for inspection. */
  deadLetter(tx: Db, job: TaskJob & { error: string }): Promise<void>;
}

export const TASK_QUEUE = 'deployment-tasks';
export const DEAD_LETTER_QUEUE = 'deployment-tasks-dead';
export { QUEUE_SCHEMA };
/** Scheduled jobs: each name is a queue with a cron schedule; its handler is in server/jobs/scheduled.ts. */
export const SCHEDULES = ['nightly-backups', 'health-checks', 'mau-sampling', 'terminations', 'past-due-pauses', 'analytics-reports', 'pending-orders', 'domain-rechecks'] as const;
export type ScheduleName = (typeof SCHEDULES)[number];

/** pg-boss's adapter over a transaction of ours: statements go through the transaction's own connection. */
type DrizzleLike = Parameters<typeof fromDrizzle>[0];
type SqlLike = Parameters<typeof fromDrizzle>[1];
/** Runs a pg-boss call inside a transaction of ours, so its writes commit or roll back with ours. */
export const through = (tx: Db) => fromDrizzle(tx as unknown as DrizzleLike, sql as unknown as SqlLike);

/** Each schedule's cron, from the configuration (UTC). */
export const scheduleCrons = (config: Config): Record<ScheduleName, string> => ({
  'nightly-backups': config.BACKUP_CRON,
  'health-checks': config.HEALTH_CHECK_CRON,
  'mau-sampling': config.MAU_SAMPLE_CRON,
  terminations: config.TERMINATION_CRON,
  'past-due-pauses': config.PAST_DUE_CRON,
  'analytics-reports': config.ANALYTICS_REPORTS_CRON,
  'pending-orders': config.PENDING_ORDERS_CRON,
  'domain-rechecks': config.DOMAIN_RECHECK_CRON,
});
export const SCHEDULE_TIMEZONE = 'UTC';

export interface Queue extends TaskQueue {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * The task queue: pg-boss in its own schema of our database, on PGlite (through the app's one
 * connection) or PostgreSQL (its own small pool). `key_strict_fifo` with the server's id as the
 * key runs one job per server at a time, in order, while different servers run in parallel.
 * A worker process supervises (retries jobs whose heartbeat stopped) and runs the schedules; an
 * API-only process just sends.
 */
export async function startQueue({ database, config, log, worker }: { database: Database; config: Config; log: FastifyBaseLogger; worker: boolean }): Promise<Queue> {
  const common: ConstructorOptions = {
    schema: QUEUE_SCHEMA,
    supervise: worker,
    schedule: worker,
    superviseIntervalSeconds: config.QUEUE_SUPERVISE_SECONDS,
    monitorIntervalSeconds: config.QUEUE_SUPERVISE_SECONDS,
    migrate: true,
    registerInstance: false,
    // A worker listens for the NOTIFY a new job on its queues sends, so a task, a schedule's run or
    // an admin's "run now" starts at once, from any process; polling stays as the backstop (retries).
    useListenNotify: worker,
  };
  const boss =
    database.kind === 'pglite' && database.pglite
      ? new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ ...common, connectionString: database.url, max: 4, application_name: worker ? 'beacon-worker' : 'beacon-api' });
  boss.on('error', (err: unknown) => log.error({ err }, 'task queue error'));
  // pg-boss's own warnings: slow queries, a backlog, or workers back to polling alone because
  // LISTEN/NOTIFY is unavailable (a pooler in transaction mode, a lost connection).
  boss.on('warning', (warning: { message: string; data?: unknown }) => log.warn({ queueWarning: warning.data }, warning.message));
  await boss.start();

  const taskQueue = {
    policy: 'key_strict_fifo',
    // The task's own attempts (TASK_MAX_ATTEMPTS) decide failure; the job's retries only need to outlast them.
    retryLimit: config.TASK_MAX_ATTEMPTS + 20,
    retryDelay: config.TASK_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: 600,
    heartbeatSeconds: config.TASK_HEARTBEAT_SECONDS,
    expireInSeconds: 24 * 3600,
    deadLetter: DEAD_LETTER_QUEUE,
    notify: true,
  } as const;
  // Several processes start at once against one database: a queue another one just made is fine.
  // Answers the queue as it was found, or null when this call made it.
  const ensure = async (name: string, options: Parameters<PgBoss['createQueue']>[1]) => {
    const found = await boss.getQueue(name);
    if (found) return found;
    await boss.createQueue(name, options).catch(async (err: unknown) => {
      if (!(await boss.getQueue(name))) throw err;
    });
    return null;
  };
  await ensure(DEAD_LETTER_QUEUE, { policy: 'standard', retentionSeconds: 30 * 24 * 3600 });
  await ensure(TASK_QUEUE, taskQueue);
  // Retry and heartbeat settings follow the configuration of the workers (the policy stays as made).
  const { policy, ...settings } = taskQueue;
  void policy;
  if (worker) await boss.updateQueue(TASK_QUEUE, settings);
  const schedule = { retryLimit: 2, expireInSeconds: 3600, notify: true };
  for (const name of SCHEDULES) {
    const found = await ensure(name, { policy: 'singleton', ...schedule });
    // A schedule's queue made before workers were woken by NOTIFY gets the flag once.
    if (worker && found && !found.notify) await boss.updateQueue(name, schedule);
  }

  return {
    boss,
    async send(tx: Db, job: TaskJob) {
      await boss.send(TASK_QUEUE, { ...job }, { singletonKey: job.deploymentId, db: through(tx) });
    },
    async deadLetter(tx: Db, job: TaskJob & { error: string }) {
      await boss.send(DEAD_LETTER_QUEUE, { ...job }, { db: through(tx) });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5_000, close: true });
    },
  };
}

export type TaskJobData = Job<TaskJob>;
