import { z } from 'zod';
import { BILLING_CYCLES } from './constants';
import { DEPLOYMENT_STATUSES, planConfigSchema, subscriptionDtoSchema } from './orders';

/** Reads of servers (SPEC §7 GET /deployments, GET /deployments/{id}/populated). */
export const deploymentListQuerySchema = z.object({
  company: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid'),
  project: z.string().trim().max(64, 'validation.invalid').optional(),
});

/** A server as the deployments list and the wizard's edit mode read it. */
export const deploymentDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  flags: z.object({ free: z.boolean() }),
  company: z.string(),
  project: z.string(),
  provider: z.object({ _id: z.string(), code: z.string().nullable() }),
  subscription: z.object({ plan: z.string(), planCode: z.string(), planConfig: planConfigSchema, payment: z.object({ term: z.object({ cycle: z.enum(BILLING_CYCLES) }) }) }),
  billing: subscriptionDtoSchema,
  createdAt: z.string(),
});
export type DeploymentDto = z.infer<typeof deploymentDtoSchema>;
