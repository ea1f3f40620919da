import { requireMachine } from './machine';
import type { TaskHandler } from './types';

export const restart: TaskHandler = {
  type: 'restart',
  steps: ['restart', 'wait_boot', 'health'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('restart', async (key) => (await ctx.provider.restart(key, machineId), {}));
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
    await ctx.step('health', (key) => ctx.provider.health(key, machineId), (tx, r) => ctx.setRuntime(tx, { healthState: r.healthy ? 'healthy' : 'unhealthy', healthCheckedAt: new Date() }));
  },
};
