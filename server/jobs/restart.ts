import { setDeploymentStatus } from '../services/deploymentTasks';
import { healthStep } from './healthCheck';
import { requireMachine } from './machine';
import type { TaskHandler } from './types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A restart drains the server first: from the moment the task starts, its status is
 * `restarting`, for which ingestion answers 503 with Retry-After (analytics/domain/serverAccess.ts)
 * and the SDKs keep their data; `drain` waits RESTART_DRAIN_MS for every process to see it (their
 * ingest caches keep a server's state up to INGEST_CACHE_MS) and for requests already accepted to
 * be written. Then the machine restarts and boots. Ingestion opens again with the status back to
 * `running`: that write drops every cached app of the server, with the event keys and values it
 * learned, at once in this process and within INGEST_CACHE_MS in the others, so they are rebuilt
 * from the database (the batch writer keeps nothing of a server between batches). A health check
 * of the real path ends it.
 */
export const restart: TaskHandler = {
  type: 'restart',
  steps: ['drain', 'restart', 'wait_boot', 'health'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('drain', async () => (await sleep(ctx.config.RESTART_DRAIN_MS), {}));
    await ctx.step('restart', async (key) => (await ctx.provider.restart(key, machineId), {}));
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
    // Not a logged step: a task resumed after its worker died is `restarting` again and opens again here.
    await ctx.db.transaction((tx) => setDeploymentStatus(tx, ctx.deployment.id, 'running', { taskId: ctx.task.id, taskType: ctx.task.type }));
    await healthStep(ctx, machineId);
  },
};
