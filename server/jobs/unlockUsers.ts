import { requireMachine } from './machine';
import type { TaskHandler } from './types';

/** Unlocks the analytics users locked out of the server's own dashboard. */
export const unlockUsers: TaskHandler = {
  type: 'unlock_users',
  steps: ['unlock_users'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    await ctx.step('unlock_users', async (key) => (await ctx.provider.unlockUsers(key, machineId), {}));
  },
};
