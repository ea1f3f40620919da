import { ArchiveRefused, discard, type VerifiedArchive } from '../backups/archive';
import { loadTenantArchive } from '../backups/load';
import { backupOf, fetchVerified, tenantOf } from '../backups/tenantBackups';
import { subscriptionOfServer } from '../services/billing';
import { defaultDomain, machineSpec, urlOf } from './machine';
import { TaskRefused, type TaskHandler } from './types';

/**
 * Brings the server's analytics data back to a backup's, exactly: the archive is fetched and
 * verified before anything is touched, then the tenant's data is replaced in the transaction that
 * logs the step (a crash rolls back both; the retry starts over). A terminated server within its
 * window first gets a new machine; then its address is set again and its billing resumes.
 */
export const restore: TaskHandler = {
  type: 'restore',
  steps: ['new_machine', 'wait_boot', 'load_backup', 'set_domain', 'resume_billing'],
  async run(ctx) {
    const terminated = ctx.runtime.deletedAt !== null;
    const backupId = String(ctx.task.payload.backupId);
    let machineId = ctx.runtime.machineId;
    if (terminated || !machineId) {
      ({ machineId } = await ctx.step('new_machine', (key) => ctx.provider.createMachine(key, machineSpec(ctx)), (tx, r) => ctx.setRuntime(tx, { machineId: r.machineId })));
      const booting = machineId;
      await ctx.step('wait_boot', async () => (await ctx.waitForBoot(booting), {}));
    }

    let verified: VerifiedArchive | null = null;
    try {
      await ctx.step(
        'load_backup',
        async () => {
          try {
            const backup = await backupOf(ctx.db, ctx.deployment.id, backupId);
            if (!backup) throw new ArchiveRefused('the backup no longer exists');
            await tenantOf(ctx.db, ctx.deployment.id);
            verified = await fetchVerified(ctx.backups, backup, ctx.deployment.id);
            return { takenAt: verified.manifest.takenAt, rows: verified.manifest.tables.reduce((n, t) => n + t.rows, 0) };
          } catch (err) {
            throw err instanceof ArchiveRefused ? new TaskRefused(err.message) : err;
          }
        },
        async (tx) => {
          if (!verified) return;
          await loadTenantArchive(ctx.db, verified, { tenantId: await tenantOf(tx, ctx.deployment.id) }, tx);
        },
      );
    } finally {
      const held = verified as VerifiedArchive | null;
      if (held) await discard(held.dir);
    }

    const custom = ctx.runtime.customDomain && ctx.runtime.domainVerifiedAt ? ctx.runtime.customDomain : null;
    const domain = custom ?? ctx.runtime.defaultDomain ?? defaultDomain(ctx);
    const ssl = ctx.runtime.sslState !== 'none';
    const target = machineId;
    if (target) await ctx.step('set_domain', (key) => ctx.provider.setDomain(key, target, domain, ssl), (tx) => ctx.setRuntime(tx, { defaultDomain: ctx.runtime.defaultDomain ?? domain, url: urlOf(domain, ssl, ctx.config), sslState: ssl ? 'active' : 'none' }));
    // A terminated server's subscription was set to end with its period: a restored one is billed on.
    if (terminated) {
      await ctx.step('resume_billing', async () => {
        const sub = await subscriptionOfServer(ctx.db, ctx.deployment.id);
        if (sub) await ctx.payments.keep(sub);
        return {};
      });
    }
  },
  async finish(tx, ctx) {
    await ctx.setRuntime(tx, { deletedAt: null, restorableUntil: null, terminationScheduledAt: null });
  },
};
