import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { OPEN_TASK_STATUSES, TASK_STATUS_FLOW, type DeploymentTaskDto, type TaskType, type TimelineKind } from '../../src/domain/deployments/tasks';
import type { DeploymentStatus } from '../../src/domain/orders/schemas';
import type { Db } from '../db/client';
import { deploymentEvents, deploymentRuntime, deploymentTasks, deployments } from '../db/schema';
import type { TaskQueue } from '../queue';
import type { AuditActor } from './audit';

export type TaskRow = typeof deploymentTasks.$inferSelect;
export type DeploymentRow = typeof deployments.$inferSelect;
export type RuntimeRow = typeof deploymentRuntime.$inferSelect;
/** A change to a server's runtime record (machine, address, deletion times...). */
export type RuntimePatch = Partial<Omit<typeof deploymentRuntime.$inferInsert, 'deploymentId'>>;
/** One entry of a task's step log. */
export type TaskStep = TaskRow['steps'][number];

export interface EventNote {
  taskId?: string | null;
  taskType?: TaskType | null;
  message?: string | null;
  actor?: AuditActor | null;
  /** When it happened, if not now (a scheduled job's clock). */
  at?: Date;
}

/** One timeline entry, in the caller's transaction. */
export async function recordEvent(tx: Db, deploymentId: string, kind: TimelineKind, note: EventNote & { fromStatus?: DeploymentStatus | null; toStatus?: DeploymentStatus | null } = {}) {
  await tx.insert(deploymentEvents).values({
    deploymentId,
    kind,
    fromStatus: note.fromStatus ?? null,
    toStatus: note.toStatus ?? null,
    taskId: note.taskId ?? null,
    taskType: note.taskType ?? null,
    message: note.message ?? null,
    actorId: note.actor?.id ?? null,
    actorEmail: note.actor?.email ?? null,
    ...(note.at ? { at: note.at } : {}),
  });
}

/**
 * THE way a server's status changes: the row is locked, changed, and the change goes on the
 * timeline in the same transaction. Returns the status before (null when the server is gone).
 */
export async function setDeploymentStatus(tx: Db, deploymentId: string, to: DeploymentStatus, note: EventNote = {}): Promise<DeploymentStatus | null> {
  const [row] = await tx.select({ status: deployments.status }).from(deployments).where(eq(deployments.id, deploymentId)).for('update');
  if (!row) return null;
  if (row.status === to) return row.status;
  await tx.update(deployments).set({ status: to, updatedAt: new Date() }).where(eq(deployments.id, deploymentId));
  await recordEvent(tx, deploymentId, 'status', { ...note, fromStatus: row.status, toStatus: to });
  return row.status;
}

/** Creates a task and sends its job in the caller's transaction: both exist, or neither. */
export async function enqueueTask(
  tx: Db,
  queue: TaskQueue,
  input: { deploymentId: string; type: TaskType; payload?: Record<string, unknown>; actor?: AuditActor | null },
): Promise<TaskRow> {
  const [task] = await tx
    .insert(deploymentTasks)
    .values({ deploymentId: input.deploymentId, type: input.type, payload: input.payload ?? {}, requestedBy: input.actor?.id ?? null, requestedByEmail: input.actor?.email ?? null })
    .returning();
  if (!task) throw new Error('task insert returned nothing');
  await recordEvent(tx, input.deploymentId, 'task_queued', { taskId: task.id, taskType: task.type, actor: input.actor });
  await queue.send(tx, { deploymentId: input.deploymentId, taskId: task.id });
  return task;
}

/** The task a server is busy with (queued or running), if any. */
export async function openTask(tx: Db, deploymentId: string): Promise<TaskRow | null> {
  const [row] = await tx
    .select()
    .from(deploymentTasks)
    .where(and(eq(deploymentTasks.deploymentId, deploymentId), inArray(deploymentTasks.status, [...OPEN_TASK_STATUSES])))
    .orderBy(desc(deploymentTasks.seq))
    .limit(1);
  return row ?? null;
}

/*
 * The task runner's (server/jobs/runner.ts) reads and writes of task rows: each runs in the
 * transaction the runner opens, so a step's log and what the step changed commit together.
 */

/**
 * Claims the server's oldest open task for a worker (skipping one another worker holds): it is
 * marked running with one more attempt, and its start goes on the timeline (with the server's
 * working status, when the task type has one). Null when the server has no open task.
 */
export async function claimOpenTask(db: Db, deploymentId: string, workerId: string): Promise<TaskRow | null> {
  return db.transaction(async (tx) => {
    const [task] = await tx
      .select()
      .from(deploymentTasks)
      .where(and(eq(deploymentTasks.deploymentId, deploymentId), inArray(deploymentTasks.status, [...OPEN_TASK_STATUSES])))
      .orderBy(asc(deploymentTasks.seq))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!task) return null;
    const now = new Date();
    const [claimed] = await tx
      .update(deploymentTasks)
      .set({ status: 'running', attempts: task.attempts + 1, claimedBy: workerId, startedAt: task.startedAt ?? now, updatedAt: now })
      .where(eq(deploymentTasks.id, task.id))
      .returning();
    await recordEvent(tx, deploymentId, 'task_started', { taskId: task.id, taskType: task.type, message: task.attempts > 0 ? `attempt ${task.attempts + 1}` : null });
    const working = TASK_STATUS_FLOW[task.type]?.working;
    if (working) await setDeploymentStatus(tx, deploymentId, working, { taskId: task.id, taskType: task.type });
    return claimed ?? null;
  });
}

/** The server a task works on and its runtime record (made when missing); null when the server is gone. */
export async function taskSubject(db: Db, deploymentId: string): Promise<{ deployment: DeploymentRow; runtime: RuntimeRow } | null> {
  const [deployment] = await db.select().from(deployments).where(eq(deployments.id, deploymentId));
  if (!deployment) return null;
  await db.insert(deploymentRuntime).values({ deploymentId }).onConflictDoNothing();
  const [runtime] = await db.select().from(deploymentRuntime).where(eq(deploymentRuntime.deploymentId, deploymentId));
  return runtime ? { deployment, runtime } : null;
}

/** Writes a task's step log and progress, in the transaction that persists what the step changed. */
export async function logTaskSteps(tx: Db, taskId: string, steps: TaskStep[], progress: number): Promise<void> {
  await tx.update(deploymentTasks).set({ steps, progress, updatedAt: new Date() }).where(eq(deploymentTasks.id, taskId));
}

/** Changes a server's runtime record, in the caller's transaction. */
export async function updateRuntime(tx: Db, deploymentId: string, patch: RuntimePatch): Promise<void> {
  await tx.update(deploymentRuntime).set({ ...patch, updatedAt: new Date() }).where(eq(deploymentRuntime.deploymentId, deploymentId));
}

/** Marks a task completed, in the transaction that finishes it. */
export async function markTaskCompleted(tx: Db, taskId: string): Promise<void> {
  await tx.update(deploymentTasks).set({ status: 'completed', progress: 100, lastError: null, finishedAt: new Date(), updatedAt: new Date() }).where(eq(deploymentTasks.id, taskId));
}

/** A failed attempt: the task is queued again with its error, or failed for good (`final`). */
export async function markTaskAttemptFailed(tx: Db, taskId: string, message: string, final: boolean): Promise<void> {
  await tx
    .update(deploymentTasks)
    .set({ status: final ? 'failed' : 'queued', lastError: message, updatedAt: new Date(), ...(final ? { finishedAt: new Date() } : {}) })
    .where(eq(deploymentTasks.id, taskId));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function taskDto(t: TaskRow): DeploymentTaskDto {
  return {
    _id: t.id,
    deploymentId: t.deploymentId,
    type: t.type,
    status: t.status,
    attempts: t.attempts,
    progress: t.progress,
    steps: t.steps,
    lastError: t.lastError,
    requestedBy: t.requestedByEmail,
    createdAt: t.createdAt.toISOString(),
    startedAt: iso(t.startedAt),
    finishedAt: iso(t.finishedAt),
    updatedAt: t.updatedAt.toISOString(),
  };
}
