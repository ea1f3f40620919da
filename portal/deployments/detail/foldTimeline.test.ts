import { describe, expect, it } from 'vitest';
import type { DeploymentEventDto } from '../../../src/domain/deployments/tasks';
import { backupScheduleKind, foldTimeline } from './foldTimeline';

let n = 0;
const event = (kind: DeploymentEventDto['kind'], at: string, over: Partial<DeploymentEventDto> = {}): DeploymentEventDto => ({
  _id: `e${++n}`,
  deploymentId: 'd-1',
  at,
  kind,
  fromStatus: null,
  toStatus: null,
  taskId: null,
  taskType: null,
  message: null,
  actorEmail: null,
  ...over,
});
/** One scheduled backup's three events, newest first, at `hour` o'clock local time of `day`. */
const backup = (day: string, hour: number) => {
  const at = (minute: number) => new Date(`${day}T${String(hour).padStart(2, '0')}:0${minute}:00`).toISOString();
  const task = { taskId: `t-${day}-${hour}`, taskType: 'backup' as const };
  return [event('task_completed', at(2), task), event('task_started', at(1), task), event('task_queued', at(0), task)];
};

describe('folding the timeline', () => {
  it("folds a day's routine backups into one line counting them, newest day first, where the day's newest one was", () => {
    const today = Array.from({ length: 24 }, (_, h) => backup('2026-11-28', 23 - h)).flat();
    const yesterday = Array.from({ length: 3 }, (_, h) => backup('2026-11-27', 23 - h)).flat();
    const restart = event('task_completed', new Date('2026-11-28T23:30:00').toISOString(), { taskType: 'restart', taskId: 'r1' });
    const entries = foldTimeline([restart, ...today, ...yesterday]);
    expect(entries.map((e) => (e.kind === 'event' ? e.event.kind : `${e.count} backups`))).toEqual(['task_completed', '24 backups', '3 backups']);
    const [, day] = entries;
    expect(day?.kind === 'backups' && day.events).toHaveLength(72);
  });

  it('keeps on their own line what someone should see: a failed or retried backup, one a person asked for, and everything else', () => {
    const at = new Date('2026-11-28T10:00:00').toISOString();
    const failed = event('task_failed', at, { taskType: 'backup', taskId: 'b1', message: 'disk full' });
    const retry = event('task_retry', at, { taskType: 'backup', taskId: 'b1' });
    const manual = event('task_completed', at, { taskType: 'backup', taskId: 'b2', actorEmail: 'ada@example.com' });
    const deletion = event('termination_scheduled', at, { message: '2026-12-05T10:00:00.000Z' });
    const entries = foldTimeline([failed, retry, manual, deletion, ...backup('2026-11-28', 9)]);
    expect(entries.map((e) => (e.kind === 'event' ? e.event._id : 'folded'))).toEqual([failed._id, retry._id, manual._id, deletion._id, 'folded']);
  });

  it('keeps every event of a backup a person asked for (Back up now), though only its queued event names them', () => {
    const at = (minute: number) => new Date(`2026-11-28T10:0${minute}:00`).toISOString();
    const task = { taskType: 'backup' as const, taskId: 'b-now' };
    const manual = [event('task_completed', at(2), task), event('task_started', at(1), task), event('task_queued', at(0), { ...task, actorEmail: 'ada@example.com' })];
    const entries = foldTimeline([...manual, ...backup('2026-11-28', 9)]);
    expect(entries.map((e) => (e.kind === 'event' ? e.event._id : `${e.count} backups`))).toEqual([...manual.map((e) => e._id), '1 backups']);
  });

  it('leaves a timeline without backups as it is', () => {
    const events = [event('status', '2026-11-28T10:00:00.000Z', { fromStatus: 'initializing', toStatus: 'running' })];
    expect(foldTimeline(events)).toEqual([{ kind: 'event', event: events[0] }]);
  });

  it("names the backups by the server's backup option", () => {
    expect(backupScheduleKind([{ type: 'backup', code: 'backup.hourly' }])).toBe('hourly');
    expect(backupScheduleKind([{ type: 'domain', code: 'domain.default' }, { type: 'backup', code: 'backup.daily' }])).toBe('nightly');
    expect(backupScheduleKind([{ type: 'domain', code: 'domain.default' }])).toBeNull();
  });
});
