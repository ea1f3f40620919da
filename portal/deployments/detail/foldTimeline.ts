import { backupScheduleOf, type BackupSchedule } from '../../../src/domain/deployments/schemas';
import type { DeploymentEventDto } from '../../../src/domain/deployments/tasks';

/** A line of the timeline: one event, or a day's routine backups folded into one line that expands. */
export type TimelineEntry = { kind: 'event'; event: DeploymentEventDto } | { kind: 'backups'; day: string; at: string; count: number; events: DeploymentEventDto[] };

const ROUTINE = new Set<DeploymentEventDto['kind']>(['task_queued', 'task_started', 'task_completed']);

/**
 * A scheduled backup's event that went as planned: the system queued it and it did not fail (a
 * failure or retry stays on its own line). `asked` holds the backup tasks a person queued (Back up
 * now): only their queued event names the person, so their other events are known by the task.
 */
export const isRoutineBackup = (e: DeploymentEventDto, asked: ReadonlySet<string> = new Set()) =>
  e.taskType === 'backup' && e.actorEmail === null && ROUTINE.has(e.kind) && !(e.taskId !== null && asked.has(e.taskId));

/** The backup tasks a person asked for: their queued event names who. */
const askedBackups = (events: readonly DeploymentEventDto[]) =>
  new Set(events.flatMap((e) => (e.taskType === 'backup' && e.kind === 'task_queued' && e.actorEmail !== null && e.taskId !== null ? [e.taskId] : [])));

/** The calendar day of an instant where the reader is (the screen shows local times). */
const localDay = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * The timeline as read: each day's routine backups (queued, started, completed: three events
 * each, 72 a day with hourly backups) become one line where the day's first one appears, newest
 * first as the events are, counting the backups (their tasks); every other event, a backup a
 * person asked for among them, stays as it is.
 */
export function foldTimeline(events: readonly DeploymentEventDto[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const days = new Map<string, Extract<TimelineEntry, { kind: 'backups' }> & { tasks: Set<string> }>();
  const asked = askedBackups(events);
  for (const e of events) {
    if (!isRoutineBackup(e, asked)) {
      entries.push({ kind: 'event', event: e });
      continue;
    }
    const day = localDay(e.at);
    let group = days.get(day);
    if (!group) {
      group = { kind: 'backups', day, at: e.at, count: 0, events: [], tasks: new Set() };
      days.set(day, group);
      entries.push(group);
    }
    group.events.push(e);
    group.tasks.add(e.taskId ?? e._id);
    group.count = group.tasks.size;
  }
  return entries.map((entry) => (entry.kind === 'backups' ? { kind: 'backups', day: entry.day, at: entry.at, count: entry.count, events: entry.events } : entry));
}

/** How often the server's backup option takes backups ("hourly"), or null without one: the folded line names them so. */
export function backupScheduleKind(features: readonly { type: string; code: string }[]): BackupSchedule['kind'] | null {
  const option = features.find((f) => f.type === 'backup');
  return option ? backupScheduleOf(option.code).kind : null;
}
