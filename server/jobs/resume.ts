import { requireMachine } from './machine';
import type { TaskHandler } from './types';

export const resume: TaskHandler = {
  type: 'resume',
  steps: ['resume', 'wait_boot'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('resume', async (key) => (await ctx.provider.resume(key, machineId), {}));
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
  },
};
