import { machineSpec, requireMachine } from './machine';
import type { TaskHandler } from './types';

/** A changed plan: the machine is resized to the new tier and boots again. */
export const modify: TaskHandler = {
  type: 'modify',
  steps: ['resize', 'wait_boot'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('resize', async (key) => (await ctx.provider.resize(key, machineId, machineSpec(ctx).size), {}));
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
  },
};
