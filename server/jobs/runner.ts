import type { PaymentGateway } from '../services/payments';
import type { FastifyBaseLogger } from 'fastify';
import { TASK_STATUS_FLOW } from '../../src/domain/deployments/tasks';
import type { Config } from '../config';
import type { Db, SnapshotReader } from '../db/client';
import { ProviderError, type CloudProvider } from '../providers';
import { claimOpenTask, logTaskSteps, markTaskAttemptFailed, markTaskCompleted, recordEvent, setDeploymentStatus, taskSubject, updateRuntime, type TaskRow } from '../services/deploymentTasks';
import type { TaskQueue } from '../queue';
import type { ServerHealth } from '../services/serverHealth';
import type { BackupStore } from '../backups/store';
import type { QuoteNotices } from '../services/quotes';
import { HANDLERS } from './index';
import { TaskRefused, type RuntimePatch, type TaskContext } from './types';

/** The job failed and must be retried later (pg-boss backs off); the task is queued again. */
export class RetryLater extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/**
 * Runs a server's open tasks, oldest first, one at a time. The queue gives one job per server at a
 * time (key_strict_fifo); the row lock here keeps it so even if two jobs ever met. A task claimed
 * again after its worker died resumes from its step log.
 */
export function createTaskRunner({ db, config, queue, providers, payments, health, backups, snapshot, quoteNotices, workerId, log }: { db: Db; config: Config; queue: TaskQueue; providers: (code: string | null | undefined) => CloudProvider; payments: PaymentGateway; backups: BackupStore; snapshot: (() => Promise<SnapshotReader>) | null; health: ServerHealth; quoteNotices: QuoteNotices; workerId: string; log: FastifyBaseLogger }) {
  const claim = (deploymentId: string) => claimOpenTask(db, deploymentId, workerId);

  async function context(task: TaskRow): Promise<TaskContext | null> {
    const subject = await taskSubject(db, task.deploymentId);
    if (!subject) return null;
    const { deployment, runtime } = subject;
    const ctx: TaskContext = {
      task,
      deployment,
      runtime,
      provider: providers(deployment.planConfig.provider),
      payments,
      backups,
      snapshot,
      config,
      db,
      queue,
      health,
      quoteNotices,
      async step(name, fn, persist) {
        const done = ctx.task.steps.find((s) => s.name === name);
        if (done) return JSON.parse(done.detail ?? '{}');
        const result = await fn(`${ctx.task.id}:${name}`);
        const steps = [...ctx.task.steps, { name, at: new Date().toISOString(), detail: JSON.stringify(result) }];
        const total = HANDLERS[ctx.task.type].steps.length || 1;
        await db.transaction(async (tx) => {
          await logTaskSteps(tx, ctx.task.id, steps, Math.min(99, Math.round((100 * steps.length) / total)));
          if (persist) await persist(tx, result);
        });
        ctx.task.steps = steps;
        return result;
      },
      async waitForBoot(machineId) {
        const deadline = Date.now() + config.TASK_WAIT_TIMEOUT_SECONDS * 1000;
        const interval = Math.min(1_000, Math.max(50, Math.floor(config.MOCK_CLOUD_BOOT_MS / 5)));
        for (;;) {
          const state = await ctx.provider.machineState(machineId);
          if (state.status === 'running') return;
          if (state.status === 'destroyed' || state.status === 'missing') throw new ProviderError(`machine ${machineId} is ${state.status}`);
          if (Date.now() > deadline) throw new ProviderError(`machine ${machineId} did not boot in time`);
          await sleep(interval);
        }
      },
      async setRuntime(tx: Db, patch: RuntimePatch) {
        await updateRuntime(tx, ctx.deployment.id, patch);
        Object.assign(ctx.runtime, patch);
      },
    };
    return ctx;
  }

  async function complete(ctx: TaskContext) {
    const handler = HANDLERS[ctx.task.type];
    await db.transaction(async (tx) => {
      await markTaskCompleted(tx, ctx.task.id);
      if (handler.finish) await handler.finish(tx, ctx);
      await recordEvent(tx, ctx.deployment.id, 'task_completed', { taskId: ctx.task.id, taskType: ctx.task.type });
      const done = TASK_STATUS_FLOW[ctx.task.type]?.done;
      if (done) await setDeploymentStatus(tx, ctx.deployment.id, done, { taskId: ctx.task.id, taskType: ctx.task.type });
    });
  }

  /** A failed attempt: queued again with the error (the server waits on the provider: 'comm error'), or failed for good. */
  async function failed(task: TaskRow, ctx: TaskContext | null, err: unknown): Promise<'retry' | 'failed'> {
    const message = errorText(err);
    const final = task.attempts >= config.TASK_MAX_ATTEMPTS || err instanceof TaskRefused;
    const flow = TASK_STATUS_FLOW[task.type];
    await db.transaction(async (tx) => {
      await markTaskAttemptFailed(tx, task.id, message, final);
      await recordEvent(tx, task.deploymentId, final ? 'task_failed' : 'task_retry', { taskId: task.id, taskType: task.type, message });
      const status = final ? flow?.error : flow ? 'comm_error' : undefined;
      if (status) await setDeploymentStatus(tx, task.deploymentId, status, { taskId: task.id, taskType: task.type, message });
      if (final) {
        if (ctx && HANDLERS[task.type].fail) await HANDLERS[task.type].fail?.(tx, ctx, message);
        await queue.deadLetter(tx, { deploymentId: task.deploymentId, taskId: task.id, error: message });
      }
    });
    // The error itself, so the log keeps its type and stack (a bare string would log as '[not an Error]').
    log[final ? 'error' : 'warn']({ taskId: task.id, type: task.type, attempt: task.attempts, err: err instanceof Error ? err : new Error(message) }, final ? 'task failed' : 'task attempt failed, will retry');
    return final ? 'failed' : 'retry';
  }

  // Set when the process stops: the task in hand finishes, the server's next ones wait for the job's retry.
  let stopping = false;

  return {
    /** Runs every open task of the server; throws RetryLater when one must wait for a retry (or for the next start). */
    async drain(deploymentId: string): Promise<number> {
      let ran = 0;
      for (;;) {
        if (stopping) throw new RetryLater('the worker is stopping');
        const task = await claim(deploymentId);
        if (!task) return ran;
        ran += 1;
        let ctx: TaskContext | null = null;
        try {
          // Attempts left over from workers that died count too: a task that keeps killing its worker fails.
          if (task.attempts > config.TASK_MAX_ATTEMPTS) throw new Error('too many attempts');
          ctx = await context(task);
          if (!ctx) return ran;
          await HANDLERS[task.type].run(ctx);
          await complete(ctx);
          await HANDLERS[task.type].announce?.(ctx).catch((err: unknown) => log.warn({ taskId: task.id, err }, 'task announcement failed'));
        } catch (err) {
          if ((await failed(task, ctx, err)) === 'retry') throw new RetryLater(`task ${task.id}: ${errorText(err)}`);
        }
      }
    },
    /** No new task from here on: the database is about to close. */
    stop() {
      stopping = true;
    },
  };
}

export type TaskRunner = ReturnType<typeof createTaskRunner>;
