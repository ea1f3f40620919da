import { requireMachine } from './machine';
import type { TaskHandler } from './types';

/** A server past due beyond the grace period is paused (its data kept); paying resumes it. */
export const pause: TaskHandler = {
  type: 'pause',
  steps: ['pause'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('pause', async (key) => (await ctx.provider.pause(key, machineId), {}));
  },
};
