import { z } from 'zod';
import { deploymentTaskDtoSchema, TASK_STATUSES, TASK_TYPES } from '../deploymentTasks';
import { deploymentPopulatedSchema } from '../deployments';
import { DEPLOYMENT_STATUSES } from '../orders';

/**
 * The admin area's running servers (issue 15): every server of every company, the task queue,
 * and the actions on a task. Apart from admin.ts so the admin list's types do not pull the
 * deployment schemas into the other admin screens.
 */

// Servers

export const adminDeploymentRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  status: z.enum(DEPLOYMENT_STATUSES),
  planCode: z.string(),
  free: z.boolean(),
  regionName: z.string().nullable(),
  subscriptionStatus: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminDeploymentRow = z.infer<typeof adminDeploymentRowSchema>;

/** The server list's own filters: status, company. */
export const adminDeploymentFilters = {
  status: z.enum(DEPLOYMENT_STATUSES, { error: 'validation.invalid' }).optional(),
  companyId: z.string().max(64).optional(),
};

/** A server's admin page: the customer's populated view, its company and every task. */
export const adminDeploymentDetailSchema = deploymentPopulatedSchema.extend({
  companyName: z.string(),
  subscriptionStatus: z.string().nullable(),
  tasks: z.array(deploymentTaskDtoSchema),
});
export type AdminDeploymentDetail = z.infer<typeof adminDeploymentDetailSchema>;

// Tasks

export const adminTaskRowSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  deploymentName: z.string(),
  companyName: z.string(),
  type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  attempts: z.number(),
  assigneeId: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminTaskRow = z.infer<typeof adminTaskRowSchema>;

export const adminTaskFilters = {
  status: z.enum(TASK_STATUSES, { error: 'validation.invalid' }).optional(),
  type: z.enum(TASK_TYPES, { error: 'validation.invalid' }).optional(),
  deploymentId: z.string().max(64).optional(),
};

/** A task's page: the task with its step log and last error, and its server. */
export const adminTaskDetailSchema = deploymentTaskDtoSchema.extend({
  deploymentName: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  /** The task a retry queued, when this one was retried. */
  retriedBy: z.string().nullable(),
});
export type AdminTaskDetail = z.infer<typeof adminTaskDetailSchema>;

export const ADMIN_TASK_ACTIONS = ['retry', 'cancel'] as const;
export type AdminTaskAction = (typeof ADMIN_TASK_ACTIONS)[number];

/** PUT /admin/deploymentTasks/{id}: the admin the task is assigned to (null: nobody). */
export const adminTaskUpdateSchema = z.object({ assigneeId: z.string().max(64).nullable() }).loose();

// Jobs

/** A queue of the worker (SPEC §3 jobs): its schedule when it has one, and its jobs by state. */
export const adminJobRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  cron: z.string().nullable(),
  timezone: z.string().nullable(),
  policy: z.string().nullable(),
  queued: z.number(),
  active: z.number(),
  deferred: z.number(),
  failed: z.number(),
  total: z.number(),
});
export type AdminJobRow = z.infer<typeof adminJobRowSchema>;
