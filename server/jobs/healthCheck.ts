import { recordEvent } from '../services/deploymentTasks';
import { requireMachine } from './machine';
import type { TaskHandler } from './types';

/** Asks the provider whether the server answers; the answer goes on the server and its timeline. */
export const healthCheck: TaskHandler = {
  type: 'health_check',
  steps: ['health'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('health', (key) => ctx.provider.health(key, machineId), async (tx, r) => {
      await ctx.setRuntime(tx, { healthState: r.healthy ? 'healthy' : 'unhealthy', healthCheckedAt: new Date() });
      await recordEvent(tx, ctx.deployment.id, 'health', { taskId: ctx.task.id, taskType: 'health_check', message: r.healthy ? 'healthy' : `unhealthy: ${r.detail}` });
    });
  },
};
