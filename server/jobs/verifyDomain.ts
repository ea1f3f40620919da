import { checkDomainRecords, describeDomainCheck, serverT } from '../services/domainDns';
import { ProviderError } from '../providers';
import { requireMachine, defaultDomain, urlOf } from './machine';
import { TaskRefused, type TaskHandler } from './types';

/**
 * Looks the custom domain's records up in DNS (services/domainDns.ts): the TXT record with the
 * server's token and the domain pointed at the server's default address. Found right, the domain is
 * verified and gets its certificate if SSL is wanted. Found wrong, the task fails at once saying
 * what was found against what was expected; a DNS that does not answer is asked again (retries).
 */
export const verifyDomain: TaskHandler = {
  type: 'verify_domain',
  steps: ['verify', 'issue_certificate'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    const domain = ctx.runtime.customDomain;
    if (!domain || !ctx.runtime.verificationToken) throw new ProviderError('no custom domain to verify');
    const token = ctx.runtime.verificationToken;
    const target = ctx.runtime.defaultDomain ?? defaultDomain(ctx);
    await ctx.step(
      'verify',
      async () => {
        const check = await checkDomainRecords(ctx.config, { domain, token, target });
        if (check.ok) return { found: true };
        const findings = describeDomainCheck(check, serverT(ctx.config.PRODUCT_NAME));
        throw check.unanswered ? new Error(findings) : new TaskRefused(findings);
      },
      (tx) => ctx.setRuntime(tx, { domainVerifiedAt: new Date() }),
    );
    if (ctx.runtime.sslState !== 'pending') return;
    await ctx.step('issue_certificate', (key) => ctx.provider.setDomain(key, machineId, domain, true), (tx) => ctx.setRuntime(tx, { sslState: 'active', url: urlOf(domain, true, ctx.config) }));
  },
};
