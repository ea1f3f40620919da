import { eq } from 'drizzle-orm';
import { subscriptions } from '../db/schema';
import { defaultDomain, machineSpec, urlOf } from './machine';
import type { TaskHandler } from './types';

/**
 * From a backup's snapshot onto the server's machine, or, for a terminated server within its
 * window, onto a new machine from the final snapshot; then its address is set again and, for a
 * terminated server, the cancellation of its subscription is withdrawn.
 */
export const restore: TaskHandler = {
  type: 'restore',
  steps: ['restore_snapshot', 'wait_boot', 'set_domain', 'resume_billing'],
  async run(ctx) {
    const terminated = ctx.runtime.deletedAt !== null;
    const snapshotId = String(ctx.task.payload.snapshotId);
    const { machineId } = await ctx.step('restore_snapshot', (key) => ctx.provider.restoreSnapshot(key, snapshotId, machineSpec(ctx), ctx.runtime.machineId), (tx, r) =>
      ctx.setRuntime(tx, { machineId: r.machineId }),
    );
    await ctx.step('wait_boot', async () => (await ctx.waitForBoot(machineId), {}));
    const custom = ctx.runtime.customDomain && ctx.runtime.domainVerifiedAt ? ctx.runtime.customDomain : null;
    const domain = custom ?? ctx.runtime.defaultDomain ?? defaultDomain(ctx);
    const ssl = ctx.runtime.sslState !== 'none';
    await ctx.step('set_domain', (key) => ctx.provider.setDomain(key, machineId, domain, ssl), (tx) => ctx.setRuntime(tx, { defaultDomain: ctx.runtime.defaultDomain ?? domain, url: urlOf(domain, ssl), sslState: ssl ? 'active' : 'none' }));
    // A terminated server's subscription was set to end with its period: a restored one is billed on.
    if (terminated) {
      await ctx.step('resume_billing', async () => {
        const [sub] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.deploymentId, ctx.deployment.id));
        if (sub) await ctx.payments.keep(sub);
        return {};
      });
    }
  },
  async finish(tx, ctx) {
    await ctx.setRuntime(tx, { deletedAt: null, restorableUntil: null, terminationScheduledAt: null });
  },
};
