import type { AdminJobRow } from '../../src/domain/schemas/adminDeployments';
import { DEAD_LETTER_QUEUE, SCHEDULES, TASK_QUEUE, type Queue } from '../worker/queue';
import { requirePlatformAdmin, type ListQuery } from './adminQuery';
import type { SessionUser } from './sessions';

export const JOB_SORT_FIELDS = ['_id', 'name', 'queued', 'active', 'failed', 'total'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];
export type JobListQuery = ListQuery<JobSortField, Record<string, never>>;

export const JOB_EXPORT_COLUMNS = [
  { id: 'name', header: 'Name' },
  { id: 'cron', header: 'Schedule' },
  { id: 'timezone', header: 'Time zone' },
  { id: 'policy', header: 'Policy' },
  { id: 'queued', header: 'Queued' },
  { id: 'active', header: 'Active' },
  { id: 'deferred', header: 'Deferred' },
  { id: 'failed', header: 'Failed' },
  { id: 'total', header: 'Total' },
] as const;

const QUEUES = [TASK_QUEUE, DEAD_LETTER_QUEUE, ...SCHEDULES];

export type AdminJobService = ReturnType<typeof createAdminJobService>;

/**
 * The admin area's jobs, read-only: the worker's queues (the task queue, its dead letters and
 * each scheduled job) with their cron and their jobs by state, as pg-boss's monitor last counted them (every
 * QUEUE_SUPERVISE_SECONDS, so they lag a little). A handful
 * of rows, so sorting and searching happen here rather than in SQL.
 */
export function createAdminJobService({ queue }: { queue: Queue }) {
  async function rows(query: JobListQuery): Promise<AdminJobRow[]> {
    const [queues, schedules] = await Promise.all([queue.boss.getQueues(QUEUES), queue.boss.getSchedules()]);
    const byName = new Map(queues.map((q) => [q.name, q]));
    const cronOf = new Map(schedules.map((s) => [s.name, s]));
    const q = query.q?.trim().toLowerCase();
    const all = QUEUES.map((name): AdminJobRow => {
      const state = byName.get(name);
      const schedule = cronOf.get(name);
      return {
        _id: name,
        name,
        cron: schedule?.cron ?? null,
        timezone: schedule?.timezone ?? null,
        policy: state?.policy ?? null,
        queued: state?.queuedCount ?? 0,
        active: state?.activeCount ?? 0,
        deferred: state?.deferredCount ?? 0,
        failed: state?.failedCount ?? 0,
        total: state?.totalCount ?? 0,
      };
    }).filter((r) => (!q || r.name.includes(q)) && (!query.ids || query.ids.includes(r._id)));
    const [field, order] = query.sort;
    const dir = order === 'ASC' ? 1 : -1;
    return all.sort((a, b) => {
      const x = a[field];
      const y = b[field];
      return dir * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) || a.name.localeCompare(b.name);
    });
  }
  return {
    async list(actor: SessionUser, input: { query: JobListQuery; range: [number, number] }) {
      requirePlatformAdmin(actor);
      const all = await rows(input.query);
      return { rows: all.slice(input.range[0], input.range[1] + 1), total: all.length };
    },
    export(actor: SessionUser, input: { query: JobListQuery }): AsyncIterable<AdminJobRow[]> {
      requirePlatformAdmin(actor);
      return (async function* () {
        yield await rows(input.query);
      })();
    },
  };
}
