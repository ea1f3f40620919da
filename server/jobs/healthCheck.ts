import { requireMachine } from './machine';
import type { TaskContext, TaskHandler } from './types';

/**
 * The last step of a health check (and of a restart): the machine's state from the provider, then
 * the probes of the real path (services/serverHealth.ts); the check is recorded with the step.
 */
export async function healthStep(ctx: TaskContext, machineId: string): Promise<void> {
  const { id } = ctx.deployment;
  await ctx.step(
    'health',
    async (key) => ctx.health.probe(id, { machine: await ctx.provider.health(key, machineId), taskId: ctx.task.id }),
    async (tx, run) => void (await ctx.health.record(tx, id, run, { taskId: ctx.task.id, taskType: ctx.task.type, event: 'always' })),
  );
}

/** Probes the server on its real path; the answer goes on the server, its checks and its timeline. */
export const healthCheck: TaskHandler = {
  type: 'health_check',
  steps: ['health'],
  run: (ctx) => healthStep(ctx, requireMachine(ctx)),
};
