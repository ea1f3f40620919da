import { and, desc, eq, ne } from 'drizzle-orm';
import type { DeploymentDto } from '../../src/domain/deployments';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { deployments, subscriptions } from '../db/schema';
import { requireMember } from './companies';
import { loadOwnedDeployment, subscriptionDto } from './orderQuotes';
import { UUID } from './plans';

type Row = { deployment: typeof deployments.$inferSelect; subscription: typeof subscriptions.$inferSelect };

function toDto({ deployment: d, subscription: s }: Row, graceDays: number): DeploymentDto {
  return {
    _id: d.id,
    name: d.name,
    status: d.status,
    flags: { free: d.free },
    company: d.companyId,
    project: d.projectId,
    provider: { _id: d.providerId, code: d.planConfig.provider ?? null },
    subscription: { plan: d.planId, planCode: d.planCode, planConfig: d.planConfig, payment: { term: { cycle: d.paymentCycle } } },
    billing: subscriptionDto(s, graceDays),
    createdAt: d.createdAt.toISOString(),
  };
}

/** Reads of a company's servers for its members (the deployments list and the wizard's edit mode). */
export function createDeploymentReads({ db, config }: { db: Db; config: Pick<Config, 'PAST_DUE_GRACE_DAYS'> }) {
  return {
    /** GET /deployments?company&project: newest first, deleted ones left out. */
    async list(userId: string, companyId: string, projectId?: string): Promise<DeploymentDto[]> {
      await requireMember(db, companyId, userId);
      if (projectId && !UUID.test(projectId)) return [];
      const rows = await db
        .select({ deployment: deployments, subscription: subscriptions })
        .from(deployments)
        .innerJoin(subscriptions, eq(subscriptions.deploymentId, deployments.id))
        .where(and(eq(deployments.companyId, companyId), ne(deployments.status, 'deleted'), ...(projectId ? [eq(deployments.projectId, projectId)] : [])))
        .orderBy(desc(deployments.createdAt))
        .limit(500);
      return rows.map((r) => toDto(r, config.PAST_DUE_GRACE_DAYS));
    },

    /** GET /deployments/{id}/populated: one server with its subscription. */
    async get(userId: string, deploymentId: string): Promise<DeploymentDto> {
      return toDto(await loadOwnedDeployment(db, deploymentId, userId), config.PAST_DUE_GRACE_DAYS);
    },
  };
}
