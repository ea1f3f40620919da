import { z } from 'zod';
import type { BillingCycle } from './constants';
import type { DeploymentStatus, PlanConfig, SubscriptionDto } from './orders';

/** Reads of servers (SPEC §7 GET /deployments, GET /deployments/{id}/populated). */
export const deploymentListQuerySchema = z.object({
  company: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid'),
  project: z.string().trim().max(64, 'validation.invalid').optional(),
});

/** A server as the deployments list and the wizard's edit mode read it. */
export interface DeploymentDto {
  _id: string;
  name: string;
  status: DeploymentStatus;
  flags: { free: boolean };
  company: string;
  project: string;
  provider: { _id: string; code: string | null };
  subscription: { plan: string; planCode: string; planConfig: PlanConfig; payment: { term: { cycle: BillingCycle } } };
  billing: SubscriptionDto;
  createdAt: string;
}
