import { and, desc, eq, inArray } from 'drizzle-orm';
import { OPEN_TASK_STATUSES, type DeploymentTaskDto, type TaskType, type TimelineKind } from '../../src/domain/deployments/tasks';
import type { DeploymentStatus } from '../../src/domain/orders/schemas';
import type { Db } from '../db/client';
import { deploymentEvents, deploymentTasks, deployments } from '../db/schema';
import type { TaskQueue } from '../queue';
import type { AuditActor } from './audit';

type TaskRow = typeof deploymentTasks.$inferSelect;

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
