import { and, desc, eq, gt, gte, inArray, ne, or, sql } from 'drizzle-orm';
import { getPublicSuffix } from 'tldts';
import { customDomainIssue, domainStopsAt } from '../../src/domain/deployments/customDomain';
import type { DeploymentDomain, DomainCheck } from '../../src/domain/deployments/schemas';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deploymentEvents, deploymentRuntime, deployments } from '../db/schema';
import { AppError } from '../errors';

/** How far back the server's page looks for the last DNS check of its custom domain. */
const CHECK_WINDOW_DAYS = 30;

/** Whether the name is Beacon's: the portal's host or under it, or the servers' suffix or under it. */
export function isOwnHost(name: string, config: Pick<Config, 'publicUrl' | 'SERVER_DOMAIN_SUFFIX'>): boolean {
  const own = [new URL(config.publicUrl).hostname.toLowerCase(), config.SERVER_DOMAIN_SUFFIX.toLowerCase().replace(/^\.|\.$/g, '')];
  return own.some((host) => name === host || name.endsWith(`.${host}`));
}

/** Whether the name is a public suffix (co.uk, github.io), private ones included: nobody owns such a name alone. */
export const isPublicSuffix = (name: string) => getPublicSuffix(name, { allowPrivateDomains: true }) === name;

/**
 * Refuses a custom domain for the server, in the change's transaction (nothing is written before):
 * the name's own rules (customDomain.ts), a public suffix, one of Beacon's hosts, or the custom
 * domain of another server (409) that has not been removed for good. A lock on the name keeps two
 * servers from taking it at once.
 */
export async function refuseCustomDomain(tx: Db, config: Pick<Config, 'publicUrl' | 'SERVER_DOMAIN_SUFFIX'>, deploymentId: string, name: string): Promise<void> {
  const issue = customDomainIssue(name);
  if (issue) throw new AppError(issue.code, { params: issue.params });
  if (isPublicSuffix(name)) throw new AppError('DOMAIN_PUBLIC_SUFFIX', { params: { domain: name } });
  if (isOwnHost(name, config)) throw new AppError('DOMAIN_RESERVED', { params: { domain: name } });
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`custom-domain:${name}`}))`);
  const [other] = await tx
    .select({ id: deploymentRuntime.deploymentId })
    .from(deploymentRuntime)
    .innerJoin(deployments, eq(deployments.id, deploymentRuntime.deploymentId))
    .where(and(eq(deploymentRuntime.customDomain, name), ne(deploymentRuntime.deploymentId, deploymentId), or(ne(deployments.status, 'deleted'), gt(deploymentRuntime.restorableUntil, new Date()))))
    .limit(1);
  if (other) throw new AppError('DOMAIN_TAKEN', { params: { domain: name } });
}

const CHECK_KINDS = ['domain_records_missing', 'domain_records_restored', 'domain_unverified'] as const;

/**
 * The last DNS check of the server's custom domain that found something wrong, if it still
 * stands: a failed verification, records missing at the daily re-check (with the date the domain
 * stops being served), or the domain stopped. One bounded read of the server's timeline: the
 * newest event about the domain decides (a domain set anew, a verification or records back end it).
 */
export async function domainCheckOf(db: Db, deploymentId: string, domain: { customDomain: string | null; domainVerifiedAt: Date | null }): Promise<DomainCheck | null> {
  if (!domain.customDomain) return null;
  const since = new Date(Math.max(Date.now() - CHECK_WINDOW_DAYS * 86_400_000, domain.domainVerifiedAt?.getTime() ?? 0));
  const [e] = await db
    .select({ kind: deploymentEvents.kind, at: deploymentEvents.at, message: deploymentEvents.message })
    .from(deploymentEvents)
    .where(
      and(
        eq(deploymentEvents.deploymentId, deploymentId),
        gte(deploymentEvents.at, since),
        or(
          inArray(deploymentEvents.kind, [...CHECK_KINDS]),
          and(eq(deploymentEvents.taskType, 'verify_domain'), inArray(deploymentEvents.kind, ['task_failed', 'task_completed'])),
          // A domain set anew ends what was found of the one before (a verified domain keeps its own).
          domain.domainVerifiedAt ? undefined : and(eq(deploymentEvents.taskType, 'update_domain'), eq(deploymentEvents.kind, 'task_queued')),
        ),
      ),
    )
    .orderBy(desc(deploymentEvents.at))
    .limit(1);
  if (!e?.message) return null;
  const at = e.at.toISOString();
  const verified = domain.domainVerifiedAt !== null;
  if (e.kind === 'domain_records_missing' && verified) return { state: 'missing', at, findings: e.message, stopsAt: domainStopsAt(e.at).toISOString() };
  if (e.kind === 'domain_unverified' && !verified) return { state: 'stopped', at, findings: e.message, stopsAt: null };
  if (e.kind === 'task_failed' && !verified) return { state: 'failed', at, findings: e.message, stopsAt: null };
  return null;
}

/** A server's page view with its custom domain's last check (lists leave it null). */
export async function withDomainCheck<V extends { _id: string; domain: DeploymentDomain | null }>(db: Db, view: V): Promise<V> {
  const d = view.domain;
  if (!d?.custom) return view;
  return { ...view, domain: { ...d, check: await domainCheckOf(db, view._id, { customDomain: d.name, domainVerifiedAt: d.verifiedAt ? new Date(d.verifiedAt) : null }) } };
}
