import { isIP } from 'node:net';
import { and, eq, isNotNull, ne, or } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { analyticsTenants, deploymentRuntime, deployments } from '../db/schema';
import { hasCustomDomainOption } from './domainOptions';

/**
 * What a request's Host names: Beacon's own portal, one server (its default address or its
 * verified custom domain), or nothing we serve. Every request is sorted by it (plugins/hostRouting.ts).
 */
export type HostTarget = { kind: 'portal' } | { kind: 'server'; deploymentId: string; custom: boolean } | { kind: 'unknown' };

/** How long an answer is kept: a domain set, verified or dropped is served (or not) within this. */
export const HOST_CACHE_MS = 5_000;
/** A name we do not serve is asked again sooner: a domain just verified is served within this. */
const UNKNOWN_CACHE_MS = 1_000;
const MAX_KEPT = 10_000;

/** A Host header's name: lower case, without its port or a trailing dot. */
export function hostnameOf(host: string): string {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

export function createServerHosts({ db, config }: { db: Db; config: Pick<Config, 'publicUrl' | 'SERVER_DOMAIN_SUFFIX'> }) {
  const portal = new URL(config.publicUrl).hostname.toLowerCase();
  const kept = new Map<string, { target: HostTarget; at: number }>();

  /** The portal: its public host, and the machine's own names (health probes, local development). */
  const isPortal = (name: string) => name === portal || name === 'localhost' || isIP(name.replace(/^\[|\]$/g, '')) !== 0;

  async function lookUp(name: string): Promise<HostTarget> {
    const [row] = await db
      .select({ deploymentId: deploymentRuntime.deploymentId, defaultDomain: deploymentRuntime.defaultDomain, planId: deployments.planId, planConfig: deployments.planConfig })
      .from(deploymentRuntime)
      .innerJoin(deployments, eq(deployments.id, deploymentRuntime.deploymentId))
      // A server with a dashboard: ordered and provisioned, not yet removed for good.
      .innerJoin(analyticsTenants, eq(analyticsTenants.deploymentId, deploymentRuntime.deploymentId))
      .where(and(ne(deployments.status, 'deleted'), or(eq(deploymentRuntime.defaultDomain, name), and(eq(deploymentRuntime.customDomain, name), isNotNull(deploymentRuntime.domainVerifiedAt)))))
      .limit(1);
    if (!row) return { kind: 'unknown' };
    const custom = row.defaultDomain !== name;
    // A custom domain is served while the server's options include one (a paid option).
    if (custom && !(await hasCustomDomainOption(db, row))) return { kind: 'unknown' };
    return { kind: 'server', deploymentId: row.deploymentId, custom };
  }

  return {
    portalHost: portal,

    async resolve(host: string | undefined): Promise<HostTarget> {
      const name = hostnameOf(host ?? '');
      if (!name || isPortal(name)) return { kind: 'portal' };
      const now = Date.now();
      const hit = kept.get(name);
      if (hit && now - hit.at < (hit.target.kind === 'unknown' ? UNKNOWN_CACHE_MS : HOST_CACHE_MS)) return hit.target;
      const target = await lookUp(name);
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(name, { target, at: now });
      return target;
    },

    /** Forgets what was kept (a test changing a domain, or a change made in this process). */
    forget() {
      kept.clear();
    },
  };
}

export type ServerHosts = ReturnType<typeof createServerHosts>;
