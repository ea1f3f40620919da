import type { PaymentGateway } from '../services/payments';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { createTaskRunner, RetryLater } from '../jobs/runner';
import { createScheduledJobs } from '../jobs/scheduled';
import type { CloudProvider } from '../providers';
import type { ReportMailing } from '../services/analytics';
import type { TaskJob } from '../services/deploymentTasks';
import { scheduleUnlessPaused } from '../services/adminJobs';
import { SCHEDULES, scheduleCrons, TASK_QUEUE, type Queue } from './queue';

/**
 * The worker: takes task jobs (WORKER_CONCURRENCY at a time, never two of one server) and runs the
 * schedules. It runs inside the server by default, or alone (`npm run worker`).
 */
export async function startWorker({ db, config, queue, providers, payments, mailing, log }: { db: Db; config: Config; queue: Queue; providers: (code: string | null | undefined) => CloudProvider; payments: PaymentGateway; mailing: ReportMailing; log: FastifyBaseLogger }) {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const runner = createTaskRunner({ db, config, queue, providers, payments, workerId, log });
  const scheduled = createScheduledJobs({ db, config, queue, providers, mailing, log });
  const pollingIntervalSeconds = config.QUEUE_POLL_MS / 1000;

  await queue.boss.work<TaskJob>(TASK_QUEUE, { localConcurrency: config.WORKER_CONCURRENCY, pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
    if (!job) return;
    try {
      await runner.drain(job.data.deploymentId);
    } catch (err) {
      // A retry is expected (pg-boss reschedules with backoff); anything else is logged as a failure too.
      if (!(err instanceof RetryLater)) log.error({ err, deploymentId: job.data.deploymentId }, 'task job failed');
      throw err;
    }
  });
  const crons = scheduleCrons(config);
  for (const name of SCHEDULES) {
    // A schedule an admin paused stays paused (admin jobs).
    await scheduleUnlessPaused(db, queue, name, crons[name]);
    await queue.boss.work(name, { pollingIntervalSeconds: Math.max(pollingIntervalSeconds, 5) }, async () => {
      const n = await scheduled[name]();
      if (n) log.info({ schedule: name, servers: n }, 'scheduled job ran');
    });
  }
  log.info({ workerId }, 'task worker started');
  return {
    workerId,
    runner,
    scheduled,
    /** Ends the worker: the task in hand finishes, then the queue stops (waiting for it) and closes. */
    async stop() {
      runner.stop();
      await queue.stop();
    },
  };
}

export type Worker = Awaited<ReturnType<typeof startWorker>>;
