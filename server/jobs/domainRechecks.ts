import type { FastifyBaseLogger } from 'fastify';
import { domainStopsAt } from '../../src/domain/deployments/customDomain';
import type { ReportMailing } from '../../analytics/server/services';
import type { Config } from '../config';
import { renderMail, type MailKind } from '../mail/templates';
import { checkDomainRecords, describeDomainCheck } from '../services/domainDns';
import type { DomainRecheckService, VerifiedDomain } from '../services/domainRechecks';
import type { ServerMailService } from '../services/serverMail';
import { urlOf } from './machine';

/** Domains looked up at once. */
const LANES = 4;
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const inWords = (at: Date) => `${when.format(at)} UTC`;

/**
 * The daily re-check of verified custom domains (DOMAIN_RECHECK_CRON): each one's records are looked
 * up again. Records gone: the timeline says what was found, and the company's admins are mailed the
 * date the domain stops being served; still gone DOMAIN_RECHECK_GRACE_DAYS later, the domain is
 * no longer verified (so no longer served: services/serverHosts.ts), audited as the system's, and
 * the admins are mailed again. Records back before then end it. A DNS that does not answer proves
 * nothing: that domain waits for the next run. `at` is the schedule's clock.
 */
export function createDomainRechecks({ domains, serverMail, config, mailing, log }: { domains: DomainRecheckService; serverMail: ServerMailService; config: Config; mailing: ReportMailing; log: FastifyBaseLogger }) {
  async function mailAdmins(d: VerifiedDomain, kind: MailKind, expiry: Record<string, string>) {
    const admins = await serverMail.admins(d.companyId);
    // The server's page shows the records to set and what the check found.
    const link = serverMail.pageLink(d);
    for (const admin of admins) await mailing.mailer.send(admin.email, renderMail(mailing.t, kind, { name: admin.firstName, link, expiry: { ...expiry, domain: d.domain }, server: d.name }), link);
  }

  /** One domain; true when something changed for it (records found gone, or the domain stopped). */
  async function recheck(d: VerifiedDomain, at: Date): Promise<boolean> {
    const check = await checkDomainRecords(config, { domain: d.domain, token: d.token, target: d.target });
    const since = await domains.missingSince(d);
    if (check.ok) {
      if (since) await domains.recordRestored(d, at);
      return false;
    }
    const findings = describeDomainCheck(check, mailing.t);
    if (check.unanswered) {
      log.warn({ deploymentId: d.id, domain: d.domain, findings }, 'custom domain re-check: DNS did not answer; the next run tries again');
      return false;
    }
    if (!since) {
      const recorded = await domains.recordMissing(d, at, findings);
      if (recorded) await mailAdmins(d, 'domainRecordsMissing', { findings, date: inWords(domainStopsAt(at)) });
      return recorded === true;
    }
    if (at < domainStopsAt(since)) return false;
    const stopped = await domains.unverify(d, { at, since, findings, url: urlOf(d.domain, false, config) });
    if (stopped) await mailAdmins(d, 'domainStopped', { findings, since: inWords(since) });
    return stopped === true;
  }

  return async function recheckDomains(at: Date): Promise<number> {
    const waiting = await domains.verified();
    let n = 0;
    const lane = async () => {
      for (let d = waiting.shift(); d; d = waiting.shift()) {
        const one = d;
        await recheck(one, at).then(
          (changed) => void (changed && (n += 1)),
          (err: unknown) => log.error({ err, deploymentId: one.id }, 'custom domain re-check failed to run'),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(LANES, waiting.length) }, lane));
    return n;
  };
}
