import { z } from 'zod';
import { deploymentTaskDtoSchema, TASK_STATUSES, TASK_TYPES } from '../deployments/tasks';
import { backupDtoSchema, deploymentPopulatedSchema, healthCheckDtoSchema, restoreBodySchema, updateDomainBodySchema } from '../deployments/schemas';
import { DEPLOYMENT_STATUSES, subscriptionDtoSchema } from '../orders/schemas';

/**
 * The admin area's running servers: every server of every company, the task queue,
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
  /** The plan as the customer sees it ("Growth"). */
  planName: z.string(),
  free: z.boolean(),
  regionName: z.string().nullable(),
  subscriptionStatus: z.string().nullable(),
  /** With the two below, what the subscription reads as (`subscriptionState`): never "Active" for a server being deleted. */
  terminationScheduledAt: z.string().nullable(),
  /** The vendor's scheduled change (a cancellation at the period end), as the customer's billing passes it on. */
  scheduledChange: z.unknown(),
  createdAt: z.string(),
});
export type AdminDeploymentRow = z.infer<typeof adminDeploymentRowSchema>;


/**
 * A server's admin page: the customer's populated view, its company and every task. `billing` is
 * null for a server without a subscription row (the admin page must still open for support).
 */
export const adminDeploymentDetailSchema = deploymentPopulatedSchema.extend({
  billing: subscriptionDtoSchema.nullable(),
  companyName: z.string(),
  subscriptionStatus: z.string().nullable(),
  tasks: z.array(deploymentTaskDtoSchema),
  /** The newest backups, to restore one from the page. */
  backups: z.array(backupDtoSchema),
  /** The last health checks, newest first, with each probe's latency. */
  healthChecks: z.array(healthCheckDtoSchema),
});
export type AdminDeploymentDetail = z.infer<typeof adminDeploymentDetailSchema>;

/**
 * The customer's server actions (SPEC §7) a platform admin runs from a server's admin page,
 * named as in the customer's paths: `POST /admin/deployments/{id}/{action}`.
 */
export const ADMIN_DEPLOYMENT_ACTIONS = ['restart', 'health-check', 'unlock-users', 'update-domain', 'verify-domain', 'delete', 'cancel-termination', 'restore'] as const;
export type AdminDeploymentAction = (typeof ADMIN_DEPLOYMENT_ACTIONS)[number];

/**
 * The body of an action, the customer's own: `restore` may name a backup; `update-domain` takes the
 * domain (null: back to the default) and `removeSSL` (the customer's query flag); the others none.
 */
export const adminDeploymentActionBodySchema = restoreBodySchema.extend(updateDomainBodySchema.shape).extend({ removeSSL: z.boolean().optional() }).nullish();
export type AdminDeploymentActionBody = z.infer<typeof adminDeploymentActionBodySchema>;

// Tasks

/** SPEC §3's assignee (a platform admin, set in the admin area) and, apart, the worker that claimed the task. */
const assigneeShape = {
  assigneeId: z.string().nullable(),
  /** The admin's name, null when unnamed (show the email) or unassigned. */
  assigneeName: z.string().nullable(),
  assigneeEmail: z.string().nullable(),
  claimedBy: z.string().nullable(),
};

export const adminTaskRowSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  deploymentName: z.string(),
  companyName: z.string(),
  type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  attempts: z.number(),
  ...assigneeShape,
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
  ...assigneeShape,
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
