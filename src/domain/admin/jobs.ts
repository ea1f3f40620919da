import { z } from 'zod';

/**
 * A queue's place in the worker (SPEC §3 jobs): `scheduled` runs on its cron, `paused` is a
 * schedule an admin stopped, `onDemand` is fed by the app (the task queue, its dead letters).
 */
export const JOB_STATES = ['scheduled', 'paused', 'onDemand'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** How the latest finished job of a queue ended. */
export const JOB_RUN_STATES = ['completed', 'failed'] as const;
export type JobRunState = (typeof JOB_RUN_STATES)[number];

/** A queue of the worker: its schedule, next and last run, and its jobs by state. */
export const adminJobRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  /** The schedule's cron (a paused one's as it was when paused); null for a queue without one. */
  cron: z.string().nullable(),
  timezone: z.string().nullable(),
  /** When the cron next sends a job; null when paused or unscheduled. */
  nextRunAt: z.string().nullable(),
  /** When the latest finished job of the queue ended, and how. */
  lastRunAt: z.string().nullable(),
  lastRunState: z.enum(JOB_RUN_STATES).nullable(),
  policy: z.string().nullable(),
  queued: z.number(),
  active: z.number(),
  deferred: z.number(),
  failed: z.number(),
  total: z.number(),
});
export type AdminJobRow = z.infer<typeof adminJobRowSchema>;

/** POST /admin/jobs/{name}/{action}: run a scheduled job now, pause or resume its schedule. */
export const ADMIN_JOB_ACTIONS = ['run', 'pause', 'resume'] as const;
export type AdminJobAction = (typeof ADMIN_JOB_ACTIONS)[number];
