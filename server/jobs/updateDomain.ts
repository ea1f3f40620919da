import { defaultDomain, requireMachine, urlOf } from './machine';
import type { TaskHandler } from './types';

/**
 * Points the server's address at its custom domain (or back at the default one). A custom domain
 * gets its certificate only once verified (verify_domain issues it); removeSSL serves plain http.
 */
export const updateDomain: TaskHandler = {
  type: 'update_domain',
  steps: ['set_domain'],
  async run(ctx) {
    const machineId = requireMachine(ctx);
    const custom = ctx.runtime.customDomain;
    const domain = custom ?? ctx.runtime.defaultDomain ?? defaultDomain(ctx);
    const wantSsl = ctx.task.payload.ssl !== false;
    const sslNow = wantSsl && (!custom || ctx.runtime.domainVerifiedAt !== null);
    await ctx.step('set_domain', (key) => ctx.provider.setDomain(key, machineId, domain, sslNow), (tx) =>
      ctx.setRuntime(tx, { url: urlOf(domain, sslNow, ctx.config), sslState: sslNow ? 'active' : wantSsl ? 'pending' : 'none' }),
    );
  },
};
