import { createTenant } from '../../analytics/server/services';
import { defaultDomain, machineSpec, urlOf } from './machine';
import type { TaskHandler } from './types';

/** A settled order becomes a running server: machine, boot, address with its certificate, health, and its analytics dashboard. */
export const provision: TaskHandler = {
  type: 'provision',
  steps: ['create_machine', 'wait_boot', 'set_domain', 'health'],
  async run(ctx) {
    const { machineId } = await ctx.step('create_machine', (key) => ctx.provider.createMachine(key, machineSpec(ctx)), (tx, r) => ctx.setRuntime(tx, { machineId: r.machineId }));
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
    const domain = ctx.runtime.defaultDomain ?? defaultDomain(ctx);
    await ctx.step('set_domain', (key) => ctx.provider.setDomain(key, machineId, domain, true), (tx) =>
      ctx.setRuntime(tx, { defaultDomain: domain, sslState: 'active', url: urlOf(domain, true, ctx.config) }),
    );
    await ctx.step('health', (key) => ctx.provider.health(key, machineId), (tx, r) => ctx.setRuntime(tx, { healthState: r.healthy ? 'healthy' : 'unhealthy', healthCheckedAt: new Date() }));
  },
  /** A server ordered from a quote: whoever prepared the quote learns it runs. */
  announce: (ctx) => ctx.quoteNotices.serverRunning(ctx.deployment.id),
  /** The server's own analytics dashboard exists from the moment it runs; whoever ordered it is its first global admin. */
  async finish(tx, ctx) {
    await createTenant(tx, ctx.deployment.id, { creatorUserId: ctx.deployment.createdBy ?? undefined });
  },
};
