import { recordEvent } from '../services/deploymentTasks';
import { ProviderError } from '../providers';
import { requireMachine, urlOf } from './machine';
import type { TaskHandler } from './types';

/** Looks for the verification record of the custom domain; once found, issues its certificate if SSL is wanted. */
export const verifyDomain: TaskHandler = {
  type: 'verify_domain',
  steps: ['verify', 'issue_certificate'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    const domain = ctx.runtime.customDomain;
    if (!domain || !ctx.runtime.verificationToken) throw new ProviderError('no custom domain to verify');
    const token = ctx.runtime.verificationToken;
    const { found } = await ctx.step('verify', async (key) => ({ found: await ctx.provider.verifyDomain(key, machineId, domain, token) }), async (tx, r) => {
      if (r.found) await ctx.setRuntime(tx, { domainVerifiedAt: new Date() });
      else await recordEvent(tx, ctx.deployment.id, 'note', { taskId: ctx.task.id, taskType: 'verify_domain', message: 'verification record not found' });
    });
    if (!found || ctx.runtime.sslState !== 'pending') return;
    await ctx.step('issue_certificate', (key) => ctx.provider.setDomain(key, machineId, domain, true), (tx) => ctx.setRuntime(tx, { sslState: 'active', url: urlOf(domain, true) }));
  },
};
