import { and, eq, inArray } from 'drizzle-orm';
import { includesCustomDomain } from '../../src/domain/deployments/schemas';
import type { Db } from '../db/client';
import { features, planFeatures, type deployments } from '../db/schema';
import { UUID } from './plans';

/**
 * Whether a server's options include a custom domain (a paid option): the domain-type options it
 * chose that its plan offers, by `includesCustomDomain`. Setting and verifying a domain
 * (deploymentActions.ts) and the edge's certificate for it (edge.ts) both ask this.
 */
export async function hasCustomDomainOption(db: Db, deployment: Pick<typeof deployments.$inferSelect, 'planId' | 'planConfig'>): Promise<boolean> {
  const ids = [...new Set(deployment.planConfig.features)].filter((id) => UUID.test(id));
  if (!ids.length) return false;
  const offered = await db
    .select({ code: features.code })
    .from(features)
    .innerJoin(planFeatures, and(eq(planFeatures.featureId, features.id), eq(planFeatures.planId, deployment.planId)))
    .where(and(inArray(features.id, ids), eq(features.type, 'domain')));
  return includesCustomDomain(offered.map((f) => f.code));
}
