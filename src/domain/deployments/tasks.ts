import { z } from 'zod';
import { DEPLOYMENT_STATUSES, type DeploymentStatus } from '../orders/schemas';

/**
 * Deployment tasks (SPEC §3 "deployment tasks: id, deployment id, status, type, assignee id"):
 * every piece of work on a server is one task, run by a worker, one at a time per server.
 */
export const TASK_TYPES = [
  'provision',
  'modify',
  'restart',
  'pause',
  'resume',
  'delete',
  'restore',
  'backup',
  'health_check',
  'update_domain',
  'verify_domain',
  'unlock_users',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** queued (waiting, also between retries) → running → completed | failed; canceled when superseded. */
export const TASK_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task still to run or running: the server is busy with it. */
export const OPEN_TASK_STATUSES = ['queued', 'running'] as const satisfies readonly TaskStatus[];

/**
 * The server's status while a task runs, when it is done, and when it finally fails (SPEC §3). Tasks
 * missing here leave the status as it is (a backup or a health check does not stop a server).
 */
export const TASK_STATUS_FLOW: Partial<Record<TaskType, { working?: DeploymentStatus; error: DeploymentStatus; done: DeploymentStatus }>> = {
  provision: { working: 'initializing', error: 'error_initializing', done: 'running' },
  modify: { working: 'modifying', error: 'error_modifying', done: 'running' },
  restart: { working: 'restarting', error: 'error_restarting', done: 'running' },
  restore: { working: 'restoring', error: 'error_restoring', done: 'running' },
  // The catalogue has no 'pausing' nor 'deleting': the server keeps its status until it is done.
  pause: { error: 'error_pausing', done: 'paused' },
  resume: { working: 'restarting', error: 'error_restarting', done: 'running' },
  delete: { error: 'error_deleting', done: 'deleted' },
};

/** One step a task has done (its log): steps already done are skipped when a task is resumed. */
export const taskStepSchema = z.object({ name: z.string(), at: z.string(), detail: z.string().nullable() });
export type TaskStep = z.infer<typeof taskStepSchema>;

/** A deployment task on the wire (SPEC §3). */
export const deploymentTaskDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  /** Times a worker has started it (a retry or a resumption after a crash counts). */
  attempts: z.number(),
  /** 0–100, from the steps done out of the task's steps. */
  progress: z.number(),
  steps: z.array(taskStepSchema),
  lastError: z.string().nullable(),
  /** Who asked for it; null for the system (scheduled jobs, the order flow). */
  requestedBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type DeploymentTaskDto = z.infer<typeof deploymentTaskDtoSchema>;

/** The short form shown with a server: what it is busy with, or did last. */
export const latestTaskSchema = deploymentTaskDtoSchema.pick({ _id: true, type: true, status: true, progress: true, lastError: true, createdAt: true, finishedAt: true });
export type LatestTask = z.infer<typeof latestTaskSchema>;

/**
 * Timeline entry kinds: a status change, a task queued/started/retried/completed/failed/canceled, a
 * health change, a deletion scheduled or canceled, billing stopped or resumed, a note, and the daily
 * DNS re-check of a verified custom domain: its records found missing (the message says what was
 * found), back within the grace period, or missing past it (the domain is no longer verified).
 */
export const TIMELINE_KINDS = [
  'status',
  'task_queued',
  'task_started',
  'task_retry',
  'task_completed',
  'task_failed',
  'task_canceled',
  'health',
  'termination_scheduled',
  'termination_canceled',
  'billing_stopped',
  'billing_resumed',
  'note',
  'domain_records_missing',
  'domain_records_restored',
  'domain_unverified',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One entry of a server's timeline (GET /deployments/events?_id=). */
export const deploymentEventDtoSchema = z.object({
  _id: z.string(),
  deploymentId: z.string(),
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** Status changes: before and after. */
  fromStatus: z.enum(DEPLOYMENT_STATUSES).nullable(),
  toStatus: z.enum(DEPLOYMENT_STATUSES).nullable(),
  taskId: z.string().nullable(),
  taskType: z.enum(TASK_TYPES).nullable(),
  /** A failure's reason, or a short note (never a secret). */
  message: z.string().nullable(),
  actorEmail: z.string().nullable(),
});
export type DeploymentEventDto = z.infer<typeof deploymentEventDtoSchema>;

/** GET /deployments/events?_id=: every task of the server and every change, newest first. */
export const deploymentTimelineSchema = z.object({ tasks: z.array(deploymentTaskDtoSchema), events: z.array(deploymentEventDtoSchema) });
export type DeploymentTimeline = z.infer<typeof deploymentTimelineSchema>;
export const timelineQuerySchema = z.object({ _id: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(64, 'validation.invalid') });
