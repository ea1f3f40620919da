import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TaskStatus, TaskType } from '../../src/domain/deployments/tasks';
import type { AdminTaskDetail, AdminTaskRow } from '../../src/domain/admin/deployments';
import type { Db } from '../db/client';
import { companies, deploymentTasks, deployments, users } from '../db/schema';
import { AppError } from '../errors';
import { listAndExport, requirePlatformAdmin, searchOver, type AdminTable, type ListQuery } from './adminQuery';
import { recordAudit } from './audit';
import { enqueueTask, openTask, recordEvent, taskDto } from './deploymentTasks';
import type { TaskQueue } from '../queue';
import { UUID } from './plans';
import { serverLabels } from './serverLabels';
import type { SessionUser } from './sessions';

export const TASK_SORT_FIELDS = ['_id', 'createdAt', 'status', 'type', 'attempts', 'deploymentName', 'assigneeEmail'] as const;
export type TaskSortField = (typeof TASK_SORT_FIELDS)[number];
export interface TaskFilter {
  status?: TaskStatus;
  type?: TaskType;
  deploymentId?: string;
}
export type TaskListQuery = ListQuery<TaskSortField, TaskFilter>;

export const TASK_EXPORT_COLUMNS = [
  { id: '_id', header: 'ID' },
  { id: 'createdAt', header: 'Created' },
  { id: 'status', header: 'Status' },
  { id: 'type', header: 'Type' },
  { id: 'deploymentName', header: 'Server' },
  { id: 'companyName', header: 'Company' },
  { id: 'attempts', header: 'Attempts' },
  { id: 'assigneeEmail', header: 'Assignee' },
  { id: 'claimedBy', header: 'Worker' },
  { id: 'lastError', header: 'Error' },
] as const;

/** The assigned admin as the lists show them: name (email when unnamed) and email; null when unassigned. */
const assigneeFields = {
  assigneeName: sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`,
  assigneeEmail: users.email,
};

const tasksTable = (db: Db): AdminTable<TaskSortField, AdminTaskRow> => ({
  sortColumns: {
    _id: { column: deploymentTasks.id, type: 'uuid' },
    createdAt: { column: deploymentTasks.createdAt, type: 'timestamptz' },
    status: { column: sql`${deploymentTasks.status}::text`, type: 'text' },
    type: { column: sql`${deploymentTasks.type}::text`, type: 'text' },
    attempts: { column: deploymentTasks.attempts, type: 'integer' },
    deploymentName: { column: deployments.name, type: 'text' },
    assigneeEmail: { column: sql`coalesce(${users.email}, '')`, type: 'text' },
  },
  id: deploymentTasks.id,
  async select({ where, orderBy, cursor, limit, offset }) {
    const rows = await db
      .select({ t: deploymentTasks, deploymentName: deployments.name, companyName: companies.name, ...assigneeFields, cursor: sql<string>`${cursor}` })
      .from(deploymentTasks)
      .innerJoin(deployments, eq(deployments.id, deploymentTasks.deploymentId))
      .innerJoin(companies, eq(companies.id, deployments.companyId))
      .leftJoin(users, eq(users.id, deploymentTasks.assigneeId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
    return rows.map((r) => ({
      row: {
        _id: r.t.id,
        deploymentId: r.t.deploymentId,
        deploymentName: r.deploymentName,
        companyName: r.companyName,
        type: r.t.type,
        status: r.t.status,
        attempts: r.t.attempts,
        assigneeId: r.t.assigneeId,
        assigneeName: r.assigneeName,
        assigneeEmail: r.assigneeEmail,
        claimedBy: r.t.claimedBy,
        lastError: r.t.lastError,
        createdAt: r.t.createdAt.toISOString(),
      },
      cursor: r.cursor,
      id: r.t.id,
    }));
  },
  count: async (where) =>
    (
      await db
        .select({ n: count() })
        .from(deploymentTasks)
        .innerJoin(deployments, eq(deployments.id, deploymentTasks.deploymentId))
        .innerJoin(companies, eq(companies.id, deployments.companyId))
        .leftJoin(users, eq(users.id, deploymentTasks.assigneeId))
        .where(where)
    )[0]?.n ?? 0,
});

function whereOf(query: TaskListQuery): SQL | undefined {
  const f = query.filter ?? {};
  return and(
    searchOver(query.q, [deployments.name, companies.name, deploymentTasks.lastError, users.email, deploymentTasks.claimedBy, sql`${deploymentTasks.id}::text`]),
    query.ids ? (query.ids.length ? inArray(deploymentTasks.id, query.ids) : sql`false`) : undefined,
    f.status ? eq(deploymentTasks.status, f.status) : undefined,
    f.type ? eq(deploymentTasks.type, f.type) : undefined,
    f.deploymentId === undefined ? undefined : UUID.test(f.deploymentId) ? eq(deploymentTasks.deploymentId, f.deploymentId) : sql`false`,
  );
}

/** Locks the task and its server (the order the worker and the server actions lock in). */
async function lockTask(tx: Db, taskId: string) {
  if (!UUID.test(taskId)) throw new AppError('TASK_NOT_FOUND');
  const [found] = await tx.select({ deploymentId: deploymentTasks.deploymentId }).from(deploymentTasks).where(eq(deploymentTasks.id, taskId));
  if (!found) throw new AppError('TASK_NOT_FOUND');
  const [deployment] = await tx.select().from(deployments).where(eq(deployments.id, found.deploymentId)).for('update');
  const [task] = await tx.select().from(deploymentTasks).where(eq(deploymentTasks.id, taskId)).for('update');
  if (!task || !deployment) throw new AppError('TASK_NOT_FOUND');
  return { task, deployment };
}

export type AdminDeploymentTaskService = ReturnType<typeof createAdminDeploymentTaskService>;

/**
 * The admin area's task queue: list, export, a task's page, and the support actions: retry a
 * failed task (a new task of the same type and payload, which the worker runs), cancel a queued
 * one, assign one to an admin. Every action is audited in its transaction; a task in the wrong
 * state answers 409 and nothing changes.
 */
export function createAdminDeploymentTaskService({ db, queue }: { db: Db; queue: TaskQueue }) {
  const table = tasksTable(db);
  return {
    ...listAndExport({ db, resource: 'deploymentTasks' }, table, whereOf, (row) => ({ ...row, status: serverLabels.taskStatus(row.status), type: serverLabels.taskType(row.type) })),

    async get(actor: SessionUser, input: { taskId: string }): Promise<AdminTaskDetail> {
      requirePlatformAdmin(actor);
      if (!UUID.test(input.taskId)) throw new AppError('TASK_NOT_FOUND');
      const [row] = await db
        .select({ t: deploymentTasks, deploymentName: deployments.name, companyId: companies.id, companyName: companies.name, ...assigneeFields })
        .from(deploymentTasks)
        .innerJoin(deployments, eq(deployments.id, deploymentTasks.deploymentId))
        .innerJoin(companies, eq(companies.id, deployments.companyId))
        .leftJoin(users, eq(users.id, deploymentTasks.assigneeId))
        .where(eq(deploymentTasks.id, input.taskId));
      if (!row) throw new AppError('TASK_NOT_FOUND');
      const [retry] = await db
        .select({ id: deploymentTasks.id })
        .from(deploymentTasks)
        .where(and(eq(deploymentTasks.deploymentId, row.t.deploymentId), sql`${deploymentTasks.payload}->>'retryOf' = ${row.t.id}`))
        .orderBy(desc(deploymentTasks.seq))
        .limit(1);
      return {
        ...taskDto(row.t),
        deploymentName: row.deploymentName,
        companyId: row.companyId,
        companyName: row.companyName,
        // The assignee is a platform admin: admins see it, customers' task answers never carry it.
        assigneeId: row.t.assigneeId,
        assigneeName: row.assigneeName,
        assigneeEmail: row.assigneeEmail,
        claimedBy: row.t.claimedBy,
        retriedBy: retry?.id ?? null,
      };
    },

    /**
     * Force-retry of a failed task: a new task of the same type and payload (without the old
     * steps, so every step runs again) queued with its job in one transaction; the failed one
     * stays in the history. A task is retried once, on a server that is not busy.
     */
    async retry(actor: SessionUser, input: { taskId: string }): Promise<AdminTaskDetail> {
      requirePlatformAdmin(actor);
      const queued = await db.transaction(async (tx) => {
        const { task, deployment } = await lockTask(tx, input.taskId);
        if (task.status !== 'failed') throw new AppError('TASK_STATE_CONFLICT', { params: { status: task.status } });
        const [again] = await tx.select({ id: deploymentTasks.id }).from(deploymentTasks).where(and(eq(deploymentTasks.deploymentId, deployment.id), sql`${deploymentTasks.payload}->>'retryOf' = ${task.id}`)).limit(1);
        if (again) throw new AppError('TASK_ALREADY_RETRIED');
        const busy = await openTask(tx, deployment.id);
        if (busy) throw new AppError('DEPLOYMENT_BUSY', { params: { task: busy.type } });
        // The same payload, pointing at the task it retries (a retry of a retry points at the latest).
        const next = await enqueueTask(tx, queue, { deploymentId: deployment.id, type: task.type, payload: { ...task.payload, retryOf: task.id }, actor });
        await recordAudit(tx, { actor, action: 'task.retry', targetType: 'task', targetId: task.id, companyId: deployment.companyId, before: { status: task.status, lastError: task.lastError }, after: { taskId: next.id, deploymentId: deployment.id } });
        return next;
      });
      return this.get(actor, { taskId: queued.id });
    },

    /** Cancels a task still waiting in the queue; the worker skips it (it only claims open tasks). */
    async cancel(actor: SessionUser, input: { taskId: string }): Promise<AdminTaskDetail> {
      requirePlatformAdmin(actor);
      await db.transaction(async (tx) => {
        const { task, deployment } = await lockTask(tx, input.taskId);
        if (task.status !== 'queued') throw new AppError('TASK_STATE_CONFLICT', { params: { status: task.status } });
        await tx.update(deploymentTasks).set({ status: 'canceled', finishedAt: new Date(), updatedAt: new Date() }).where(eq(deploymentTasks.id, task.id));
        await recordEvent(tx, deployment.id, 'task_canceled', { taskId: task.id, taskType: task.type, actor });
        await recordAudit(tx, { actor, action: 'task.cancel', targetType: 'task', targetId: task.id, companyId: deployment.companyId, before: { status: task.status }, after: { status: 'canceled' } });
      });
      return this.get(actor, input);
    },

    /** Assigns the task to a platform admin (null: nobody). A worker that claims it notes itself apart (`claimedBy`). */
    async assign(actor: SessionUser, input: { taskId: string; assigneeId: string | null }): Promise<AdminTaskDetail> {
      requirePlatformAdmin(actor);
      await db.transaction(async (tx) => {
        const { task, deployment } = await lockTask(tx, input.taskId);
        if (input.assigneeId !== null) {
          const [admin] = UUID.test(input.assigneeId) ? await tx.select({ id: users.id }).from(users).where(and(eq(users.id, input.assigneeId), eq(users.isAdmin, true))) : [];
          if (!admin) throw AppError.validation({ assigneeId: ['validation.invalid'] });
        }
        if (task.assigneeId === input.assigneeId) return;
        await tx.update(deploymentTasks).set({ assigneeId: input.assigneeId, updatedAt: new Date() }).where(eq(deploymentTasks.id, task.id));
        await recordAudit(tx, { actor, action: 'task.assign', targetType: 'task', targetId: task.id, companyId: deployment.companyId, before: { assigneeId: task.assigneeId }, after: { assigneeId: input.assigneeId } });
      });
      return this.get(actor, input);
    },
  };
}
