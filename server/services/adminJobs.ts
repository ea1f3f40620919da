import { eq, sql } from 'drizzle-orm';
import type { AdminJobAction, AdminJobRow, JobRunState, JobState } from '../../src/domain/admin/jobs';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { pausedSchedules } from '../db/schema';
import { AppError } from '../errors';
import { DEAD_LETTER_QUEUE, QUEUE_SCHEMA, SCHEDULE_TIMEZONE, SCHEDULES, scheduleCrons, TASK_QUEUE, through, type Queue, type ScheduleName } from '../queue';
import { requirePlatformAdmin, type ListQuery } from './adminQuery';
import { recordAudit } from './audit';
import type { SessionUser } from './sessions';

export const JOB_SORT_FIELDS = ['_id', 'name', 'state', 'nextRunAt', 'lastRunAt', 'queued', 'active', 'failed', 'total'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];
export type JobListQuery = ListQuery<JobSortField, Record<string, never>>;

export const JOB_EXPORT_COLUMNS = [
  { id: 'name', header: 'Name' },
  { id: 'state', header: 'State' },
  { id: 'cron', header: 'Schedule' },
  { id: 'timezone', header: 'Time zone' },
  { id: 'nextRunAt', header: 'Next run' },
  { id: 'lastRunAt', header: 'Last run' },
  { id: 'lastRunState', header: 'Last run state' },
  { id: 'policy', header: 'Policy' },
  { id: 'queued', header: 'Queued' },
  { id: 'active', header: 'Active' },
  { id: 'deferred', header: 'Deferred' },
  { id: 'failed', header: 'Failed' },
  { id: 'total', header: 'Total' },
] as const;

const QUEUES = [TASK_QUEUE, DEAD_LETTER_QUEUE, ...SCHEDULES];
const isSchedule = (name: string): name is ScheduleName => (SCHEDULES as readonly string[]).includes(name);
/** The singleton key of "run now" jobs: while one waits to be picked up, another click adds nothing. */
const RUN_NOW_KEY = 'run-now';

/** Serialises pausing, resuming and the worker's scheduling of one name (the paused row may not exist yet to lock). */
async function lockSchedule(tx: Db, name: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`schedule:${name}`}))`);
}

/**
 * Schedules a job on its cron unless an admin paused it: what the worker does for each schedule
 * as it starts, so a restart never undoes a pause. Answers whether it scheduled.
 */
export async function scheduleUnlessPaused(db: Db, queue: Queue, name: ScheduleName, cron: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockSchedule(tx, name);
    const [paused] = await tx.select({ name: pausedSchedules.name }).from(pausedSchedules).where(eq(pausedSchedules.name, name));
    if (paused) {
      await queue.boss.unschedule(name, undefined, { db: through(tx) });
      return false;
    }
    await queue.boss.schedule(name, cron, null, { tz: SCHEDULE_TIMEZONE, db: through(tx) });
    return true;
  });
}

const iso = (value: unknown) => (value == null ? null : new Date(value as string | Date).toISOString());

/** Nulls last in both directions; numbers as numbers, the rest as text. */
function compare(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x == null) return 1;
  if (y == null) return -1;
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

export type AdminJobService = ReturnType<typeof createAdminJobService>;

/**
 * The admin area's jobs: the worker's queues (the task queue, its dead letters and each scheduled
 * job) with their schedule, next run (from the cron), last run (the latest finished job) and jobs
 * by state as pg-boss's monitor last counted them (every QUEUE_SUPERVISE_SECONDS, so they lag a
 * little). A handful of rows, so sorting and searching happen here rather than in SQL.
 * A scheduled job can be run now, paused (unscheduled, its cron kept in paused_schedules) and
 * resumed; each action is audited in the transaction that makes it.
 */
export function createAdminJobService({ db, config, queue }: { db: Db; config: Config; queue: Queue }) {
  const crons = scheduleCrons(config);

  async function lastRuns(): Promise<Map<string, { at: string | null; state: JobRunState }>> {
    type Run = { name: string; state: JobRunState; at: string | Date | null };
    // Both drivers answer `{ rows }`; Db's type is the union of the two.
    const res = (await db.execute(sql`
      select distinct on (name) name, state::text as state, completed_on as at
      from ${sql.identifier(QUEUE_SCHEMA)}.job
      where name in (${sql.join(QUEUES.map((q) => sql`${q}`), sql`, `)}) and state in ('completed', 'failed')
      order by name, completed_on desc nulls last`)) as unknown as { rows: Run[] };
    return new Map(res.rows.map((r) => [r.name, { at: iso(r.at), state: r.state }]));
  }

  function nextRun(cron: string, timezone: string): string | null {
    try {
      return iso(queue.boss.previewSchedule(cron, { tz: timezone, count: 1 })[0]);
    } catch {
      return null;
    }
  }

  async function rows(query: JobListQuery): Promise<AdminJobRow[]> {
    const queues = await queue.boss.getQueues(QUEUES);
    const schedules = await queue.boss.getSchedules();
    const paused = await db.select().from(pausedSchedules);
    const last = await lastRuns();
    const byName = new Map(queues.map((q) => [q.name, q]));
    const scheduleOf = new Map(schedules.map((s) => [s.name, s]));
    const pausedOf = new Map(paused.map((p) => [p.name, p]));
    const q = query.q?.trim().toLowerCase();
    const all = QUEUES.map((name): AdminJobRow => {
      const counts = byName.get(name);
      const schedule = scheduleOf.get(name);
      const pause = pausedOf.get(name);
      const state: JobState = pause ? 'paused' : schedule ? 'scheduled' : 'onDemand';
      const cron = pause?.cron ?? schedule?.cron ?? null;
      const timezone = pause?.timezone ?? schedule?.timezone ?? null;
      return {
        _id: name,
        name,
        state,
        cron,
        timezone,
        nextRunAt: state === 'scheduled' && cron ? nextRun(cron, timezone ?? SCHEDULE_TIMEZONE) : null,
        lastRunAt: last.get(name)?.at ?? null,
        lastRunState: last.get(name)?.state ?? null,
        policy: counts?.policy ?? null,
        queued: counts?.queuedCount ?? 0,
        active: counts?.activeCount ?? 0,
        deferred: counts?.deferredCount ?? 0,
        failed: counts?.failedCount ?? 0,
        total: counts?.totalCount ?? 0,
      };
    }).filter((r) => (!q || r.name.includes(q)) && (!query.ids || query.ids.includes(r._id)));
    const [field, order] = query.sort;
    const dir = order === 'ASC' ? 1 : -1;
    return all.sort((a, b) => {
      const x = a[field];
      const y = b[field];
      // Nulls stay last whichever way the rest is sorted.
      const c = x == null || y == null ? compare(x, y) : dir * compare(x, y);
      return c || a.name.localeCompare(b.name);
    });
  }

  async function one(name: string): Promise<AdminJobRow> {
    const [row] = await rows({ sort: ['name', 'ASC'], ids: [name], filter: {} });
    if (!row) throw new AppError('JOB_NOT_FOUND');
    return row;
  }

  /** A scheduled job by name: another queue is never paused or run by hand (409), an unknown name is 404. */
  function scheduleName(name: string): ScheduleName {
    if (!QUEUES.includes(name)) throw new AppError('JOB_NOT_FOUND');
    if (!isSchedule(name)) throw new AppError('JOB_STATE_CONFLICT', { params: { state: 'onDemand' } });
    return name;
  }

  const actions: Record<AdminJobAction, (actor: SessionUser, name: ScheduleName) => Promise<void>> = {
    /** Sends a job to the schedule's queue now; a second click while it waits changes nothing. */
    async run(actor, name) {
      await db.transaction(async (tx) => {
        const sent = await queue.boss.upsert(name, null, { singletonKey: RUN_NOW_KEY, db: through(tx) });
        if (sent.inserted) await recordAudit(tx, { actor, action: 'job.run', targetType: 'job', targetId: name, after: { jobId: sent.jobs[0] ?? null } });
      });
    },
    /** Unschedules, keeping the cron for resume. */
    async pause(actor, name) {
      // Read before the transaction: on PGlite a pg-boss read outside it would wait for it to end.
      const current = await queue.boss.getSchedule(name);
      const cron = current?.cron ?? crons[name];
      const timezone = current?.timezone ?? SCHEDULE_TIMEZONE;
      await db.transaction(async (tx) => {
        await lockSchedule(tx, name);
        const [paused] = await tx.insert(pausedSchedules).values({ name, cron, timezone, pausedBy: actor.id }).onConflictDoNothing().returning({ name: pausedSchedules.name });
        if (!paused) throw new AppError('JOB_STATE_CONFLICT', { params: { state: 'paused' } });
        await queue.boss.unschedule(name, undefined, { db: through(tx) });
        await recordAudit(tx, { actor, action: 'job.pause', targetType: 'job', targetId: name, before: { state: 'scheduled', cron, timezone }, after: { state: 'paused' } });
      });
    },
    /** Schedules again on the cron it had when paused. */
    async resume(actor, name) {
      await db.transaction(async (tx) => {
        await lockSchedule(tx, name);
        const [paused] = await tx.delete(pausedSchedules).where(eq(pausedSchedules.name, name)).returning();
        if (!paused) throw new AppError('JOB_STATE_CONFLICT', { params: { state: 'scheduled' } });
        await queue.boss.schedule(name, paused.cron, null, { tz: paused.timezone, db: through(tx) });
        await recordAudit(tx, { actor, action: 'job.resume', targetType: 'job', targetId: name, before: { state: 'paused' }, after: { state: 'scheduled', cron: paused.cron, timezone: paused.timezone } });
      });
    },
  };

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
    async get(actor: SessionUser, input: { name: string }): Promise<AdminJobRow> {
      requirePlatformAdmin(actor);
      return one(input.name);
    },
    /** Run now, pause or resume a scheduled job; answers the job's row as it is afterwards. */
    async act(actor: SessionUser, input: { name: string; action: AdminJobAction }): Promise<AdminJobRow> {
      requirePlatformAdmin(actor);
      await actions[input.action](actor, scheduleName(input.name));
      return one(input.name);
    },
  };
}
