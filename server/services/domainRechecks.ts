import { and, desc, eq, gte, inArray, isNotNull, ne } from 'drizzle-orm';
import { DOMAIN_RECHECK_GRACE_DAYS } from '../../src/domain/deployments/customDomain';
import type { Db } from '../db/client';
import { deploymentEvents, deploymentRuntime, deployments } from '../db/schema';
import { recordAudit } from './audit';
import { recordEvent } from './deploymentTasks';

/** A verified custom domain, as the daily re-check reads it. */
export interface VerifiedDomain {
  id: string;
  name: string;
  companyId: string;
  projectId: string;
  domain: string;
  token: string;
  verifiedAt: Date;
  target: string;
}

/**
 * Verified custom domains as the daily re-check (server/jobs/domainRechecks.ts) keeps them: the
 * domains to look up, since when one's records have been missing, and what each finding writes.
 * Every write happens under the server's lock and only while its domain is the one that was read:
 * a customer's change since wins (the write is skipped, null).
 */
export function createDomainRecheckService({ db }: { db: Db }) {
  function whileUnchanged<T>(d: VerifiedDomain, write: (tx: Db) => Promise<T>): Promise<T | null> {
    return db.transaction(async (tx) => {
      await tx.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, d.id)).for('update');
      const [now] = await tx.select({ domain: deploymentRuntime.customDomain, verifiedAt: deploymentRuntime.domainVerifiedAt }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
      if (now?.domain !== d.domain || now.verifiedAt?.getTime() !== d.verifiedAt.getTime()) return null;
      return write(tx);
    });
  }

  return {
    /** Every verified custom domain of a server not deleted, with what its check needs. */
    async verified(): Promise<VerifiedDomain[]> {
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
      return rows.flatMap((r) => (r.domain && r.token && r.verifiedAt && r.target ? [{ ...r, domain: r.domain, token: r.token, verifiedAt: r.verifiedAt, target: r.target }] : []));
    },

    /** Since when the domain's records have been missing (the check that first found them gone), or null. */
    async missingSince(d: VerifiedDomain): Promise<Date | null> {
      const [e] = await db
        .select({ kind: deploymentEvents.kind, at: deploymentEvents.at })
        .from(deploymentEvents)
        .where(and(eq(deploymentEvents.deploymentId, d.id), gte(deploymentEvents.at, d.verifiedAt), inArray(deploymentEvents.kind, ['domain_records_missing', 'domain_records_restored'])))
        .orderBy(desc(deploymentEvents.at))
        .limit(1);
      return e?.kind === 'domain_records_missing' ? e.at : null;
    },

    /** The records are back: the timeline says so. */
    recordRestored: (d: VerifiedDomain, at: Date) => whileUnchanged(d, (tx) => recordEvent(tx, d.id, 'domain_records_restored', { at }).then(() => true)),

    /** The records were found gone: the timeline says what was found (the day the grace period starts). */
    recordMissing: (d: VerifiedDomain, at: Date, findings: string) => whileUnchanged(d, (tx) => recordEvent(tx, d.id, 'domain_records_missing', { at, message: findings }).then(() => true)),

    /**
     * Still gone past the grace period: the domain is no longer verified, so no longer served
     * (services/serverHosts.ts), the server's address goes back to `url`, audited as the system's.
     */
    unverify: (d: VerifiedDomain, change: { at: Date; since: Date; findings: string; url: string }) =>
      whileUnchanged(d, async (tx) => {
        const { at, since, findings, url } = change;
        const [runtime] = await tx.select({ sslState: deploymentRuntime.sslState }).from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, d.id));
        // As a domain set and not yet verified: served nowhere, its certificate issued again once verified.
        const sslState = runtime?.sslState === 'none' ? 'none' : 'pending';
        await tx.update(deploymentRuntime).set({ domainVerifiedAt: null, sslState, url, updatedAt: at }).where(eq(deploymentRuntime.deploymentId, d.id));
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
      }),
  };
}

export type DomainRecheckService = ReturnType<typeof createDomainRecheckService>;
