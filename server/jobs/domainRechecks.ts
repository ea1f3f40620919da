import { and, desc, eq, gte, inArray, isNotNull, ne } from 'drizzle-orm';
import { companyAdmins, serverPageLink } from './recipients';
import type { FastifyBaseLogger } from 'fastify';
import { DOMAIN_RECHECK_GRACE_DAYS, domainStopsAt } from '../../src/domain/deployments/customDomain';
import type { ReportMailing } from '../../analytics/server/services';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deploymentEvents, deploymentRuntime, deployments } from '../db/schema';
import { renderMail, type MailKind } from '../mail/templates';
import { recordAudit } from '../services/audit';
import { recordEvent } from '../services/deploymentTasks';
import { checkDomainRecords, describeDomainCheck } from '../services/domainDns';
import { urlOf } from './machine';

/** Domains looked up at once. */
const LANES = 4;
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const inWords = (at: Date) => `${when.format(at)} UTC`;

type Checked = { id: string; name: string; companyId: string; projectId: string; domain: string; token: string; verifiedAt: Date; target: string };

/**
 * The daily re-check of verified custom domains (DOMAIN_RECHECK_CRON): each one's records are looked
 * up again. Records gone: the timeline says what was found, and the company's admins are mailed the
 * date the domain stops being served; still gone DOMAIN_RECHECK_GRACE_DAYS later, the domain is
 * no longer verified (so no longer served: services/serverHosts.ts), audited as the system's, and
 * the admins are mailed again. Records back before then end it. A DNS that does not answer proves
 * nothing: that domain waits for the next run. `at` is the schedule's clock.
 */
export function createDomainRechecks({ db, config, mailing, log }: { db: Db; config: Config; mailing: ReportMailing; log: FastifyBaseLogger }) {
  /** Since when the domain's records have been missing (the check that first found them gone), or null. */
  async function missingSince(d: Checked): Promise<Date | null> {
    const [e] = await db
      .select({ kind: deploymentEvents.kind, at: deploymentEvents.at })
      .from(deploymentEvents)
      .where(and(eq(deploymentEvents.deploymentId, d.id), gte(deploymentEvents.at, d.verifiedAt), inArray(deploymentEvents.kind, ['domain_records_missing', 'domain_records_restored'])))
      .orderBy(desc(deploymentEvents.at))
      .limit(1);
    return e?.kind === 'domain_records_missing' ? e.at : null;
  }

  /** Writes under the server's lock, unless its domain changed since it was read (a customer's change wins). */
  function locked<T>(d: Checked, write: (tx: Db) => Promise<T>): Promise<T | null> {
    return db.transaction(async (tx) => {
      await tx.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, d.id)).for('update');
      const [now] = await tx.select({ domain: deploymentRuntime.customDomain, verifiedAt: deploymentRuntime.domainVerifiedAt }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
      if (now?.domain !== d.domain || now.verifiedAt?.getTime() !== d.verifiedAt.getTime()) return null;
      return write(tx);
    });
  }

  async function mailAdmins(d: Checked, kind: MailKind, expiry: Record<string, string>) {
    const admins = await companyAdmins(db, d.companyId);
    // The server's page shows the records to set and what the check found.
    const link = serverPageLink(mailing.publicUrl, d);
    for (const admin of admins) await mailing.mailer.send(admin.email, renderMail(mailing.t, kind, { name: admin.firstName, link, expiry: { ...expiry, domain: d.domain }, server: d.name }), link);
  }

  /** One domain; true when something changed for it (records found gone, or the domain stopped). */
  async function recheck(d: Checked, at: Date): Promise<boolean> {
    const check = await checkDomainRecords(config, { domain: d.domain, token: d.token, target: d.target });
    const since = await missingSince(d);
    if (check.ok) {
      if (since) await locked(d, (tx) => recordEvent(tx, d.id, 'domain_records_restored', { at }));
      return false;
    }
    const findings = describeDomainCheck(check, mailing.t);
    if (check.unanswered) {
      log.warn({ deploymentId: d.id, domain: d.domain, findings }, 'custom domain re-check: DNS did not answer; the next run tries again');
      return false;
    }
    if (!since) {
      const recorded = await locked(d, (tx) => recordEvent(tx, d.id, 'domain_records_missing', { at, message: findings }).then(() => true));
      if (recorded) await mailAdmins(d, 'domainRecordsMissing', { findings, date: inWords(domainStopsAt(at)) });
      return recorded === true;
    }
    if (at < domainStopsAt(since)) return false;
    const stopped = await locked(d, async (tx) => {
      const [runtime] = await tx.select({ sslState: deploymentRuntime.sslState }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
      // As a domain set and not yet verified: served nowhere, its certificate issued again once verified.
      const sslState = runtime?.sslState === 'none' ? 'none' : 'pending';
      await tx.update(deploymentRuntime).set({ domainVerifiedAt: null, sslState, url: urlOf(d.domain, false, config), updatedAt: at }).where(eq(deploymentRuntime.deploymentId, d.id));
      await recordEvent(tx, d.id, 'domain_unverified', { at, message: findings });
      await recordAudit(tx, {
        actor: null,
        action: 'deployment.domainUnverified',
        targetType: 'deployment',
        targetId: d.id,
        companyId: d.companyId,
        before: { domain: d.domain, verifiedAt: d.verifiedAt.toISOString(), sslState: runtime?.sslState ?? null },
        after: { verifiedAt: null, sslState, missingSince: since.toISOString(), graceDays: DOMAIN_RECHECK_GRACE_DAYS, findings },
      });
      return true;
    });
    if (stopped) await mailAdmins(d, 'domainStopped', { findings, since: inWords(since) });
    return stopped === true;
  }

  return async function recheckDomains(at: Date): Promise<number> {
    const rows = await db
      .select({
        id: deployments.id,
        name: deployments.name,
        companyId: deployments.companyId,
        projectId: deployments.projectId,
        domain: deploymentRuntime.customDomain,
        token: deploymentRuntime.verificationToken,
        verifiedAt: deploymentRuntime.domainVerifiedAt,
        target: deploymentRuntime.defaultDomain,
      })
      .from(deployments)
      .innerJoin(deploymentRuntime, eq(deploymentRuntime.deploymentId, deployments.id))
      .where(and(isNotNull(deploymentRuntime.customDomain), isNotNull(deploymentRuntime.domainVerifiedAt), ne(deployments.status, 'deleted')));
    const waiting = rows.flatMap((r) => (r.domain && r.token && r.verifiedAt && r.target ? [{ ...r, domain: r.domain, token: r.token, verifiedAt: r.verifiedAt, target: r.target }] : []));
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
