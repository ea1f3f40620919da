import { createQuoteNotices } from '../services/quotes';
import type { PaymentGateway } from '../services/payments';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, SnapshotReader } from '../db/client';
import { createTaskRunner, RetryLater } from '../jobs/runner';
import { createScheduledJobs, type ScheduleServices } from '../jobs/scheduled';
import type { CloudProvider } from '../providers';
import type { BackupStore } from '../backups/store';
import type { ReportMailing } from '../../analytics/server/services';
import { scheduleUnlessPaused } from '../services/adminJobs';
import type { ServerHealth } from '../services/serverHealth';
import { SCHEDULES, scheduleCrons, TASK_QUEUE, type Queue, type TaskJob } from '../queue';

/**
 * The worker: takes task jobs (WORKER_CONCURRENCY at a time, never two of one server) and runs the
 * schedules. It runs inside the server by default, or alone (`npm run worker`).
 */
type WorkerDeps = { db: Db; config: Config; queue: Queue; providers: (code: string | null | undefined) => CloudProvider; backups: BackupStore; snapshot: (() => Promise<SnapshotReader>) | null; payments: PaymentGateway; health: ServerHealth; schedules: ScheduleServices; mailing: ReportMailing; log: FastifyBaseLogger };

/**
 * Makes the worker without starting it: the server starts it once it is ready (it then answers
 * while the worker subscribes and registers the schedules, a quarter of a second on PGlite).
 */
export function createWorker({ db, config, queue, providers, backups, snapshot, payments, health, schedules, mailing, log }: WorkerDeps) {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const runner = createTaskRunner({ db, config, queue, providers, payments, backups, snapshot, health, quoteNotices: createQuoteNotices({ db, mailing }), workerId, log });
  const scheduled = createScheduledJobs({ services: schedules, config, providers, payments, health, mailing, log, now: () => new Date() });
  const pollingIntervalSeconds = config.QUEUE_POLL_MS / 1000;
  let stopping = false;

  const subscribe = async () => {
    await queue.boss.work<TaskJob>(TASK_QUEUE, { localConcurrency: config.WORKER_CONCURRENCY, ...pollEvery(pollingIntervalSeconds), batchSize: 1 }, async ([job]) => {
      if (!job) return;
      try {
        await runner.drain(job.data.deploymentId);
      } catch (err) {
        // A retry is expected (pg-boss reschedules with backoff). A task the stop cut short (the
        // database closed under it) is not completed either, so it runs again at the next start.
        if (err instanceof RetryLater) throw err;
        if (stopping) log.warn({ err, deploymentId: job.data.deploymentId }, 'task job cut short by the stop; it runs again at the next start');
        else log.error({ err, deploymentId: job.data.deploymentId }, 'task job failed');
        throw err;
      }
    });
    const crons = scheduleCrons(config);
    for (const name of SCHEDULES) {
      // A schedule an admin paused stays paused (admin jobs).
      await scheduleUnlessPaused(db, queue, name, crons[name]);
      await queue.boss.work(name, pollEvery(Math.max(pollingIntervalSeconds, 5)), async () => {
        const n = await scheduled[name]();
        if (n) log.info({ schedule: name, servers: n }, 'scheduled job ran');
      });
    }
    log.info({ workerId }, 'task worker started');
  };
  let started: Promise<void> | null = null;

  return {
    workerId,
    runner,
    scheduled,
    /** Takes jobs and registers the schedules; the same promise on every call. */
    start(): Promise<void> {
      // A worker stopped before it started (an app closed right after it was ready) stays stopped.
      started ??= stopping ? Promise.resolve() : subscribe();
      return started;
    },
    /** Ends the worker: the task in hand finishes, then the queue stops (waiting for it) and closes. */
    async stop() {
      stopping = true;
      runner.stop();
      // A stop during the start waits for it, so no subscription is made on a stopped queue.
      await started?.catch(() => undefined);
      await queue.stop();
    },
  };
}

export type Worker = ReturnType<typeof createWorker>;

/**
 * A new job wakes the worker at once (LISTEN/NOTIFY, server/queue); this poll, the same whether or
 * not the notices arrive, finds the retries that come due.
 */
const pollEvery = (seconds: number) => ({ pollingIntervalSeconds: seconds, notifyPollingIntervalSeconds: seconds });
