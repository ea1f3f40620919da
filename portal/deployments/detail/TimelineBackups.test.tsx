// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../src/serversI18n';
import type { DeploymentEventDto } from '../../../src/domain/deployments/tasks';
import { renderPage } from '../../../src/testing/renderPage';
import { dateTime } from '../../../src/ui/servers/status';
import { TimelinePanel } from './TimelinePanel';

let n = 0;
const event = (kind: DeploymentEventDto['kind'], at: string, over: Partial<DeploymentEventDto> = {}): DeploymentEventDto => ({
  _id: `e${++n}`, deploymentId: 'd-1', at, kind, fromStatus: null, toStatus: null, taskId: null, taskType: null, message: null, actorEmail: null, ...over,
});
const hourlyBackups = (day: string) =>
  Array.from({ length: 24 }, (_, i) => 23 - i).flatMap((hour) => {
    const at = (m: number) => new Date(`${day}T${String(hour).padStart(2, '0')}:0${m}:00`).toISOString();
    const task = { taskId: `t-${day}-${hour}`, taskType: 'backup' as const };
    return [event('task_completed', at(2), task), event('task_started', at(1), task), event('task_queued', at(0), task)];
  });

afterEach(cleanup);

describe('the timeline of a server with hourly backups', () => {
  it('shows a day of backups as "24 hourly backups", which opens onto them', async () => {
    const events = hourlyBackups('2026-11-27');
    renderPage(<TimelinePanel timeline={{ tasks: [], events }} backupSchedule="hourly" />, '/');
    const panel = screen.getByTestId('timeline-panel');
    expect(within(panel).getByText('24 hourly backups')).toBeTruthy();
    expect(within(panel).queryAllByTestId('timeline-event')).toHaveLength(0);
    const show = within(panel).getByRole('button', { name: 'Show' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await act(async () => void fireEvent.click(show));
    expect(within(panel).getAllByTestId('timeline-event')).toHaveLength(72);
    expect(within(panel).getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('says the deletion date on the deletion line, and no other date on the billing line beside it', () => {
    const deletionAt = '2026-12-05T10:00:00.000Z';
    const periodEnd = '2026-12-27T10:00:00.000Z';
    const events = [event('billing_stopped', '2026-11-28T10:00:01.000Z', { message: periodEnd }), event('termination_scheduled', '2026-11-28T10:00:00.000Z', { message: deletionAt, actorEmail: 'ada@example.com' })];
    renderPage(<TimelinePanel timeline={{ tasks: [], events }} />, '/');
    const text = screen.getByTestId('timeline-panel').textContent ?? '';
    expect(text).toContain(`Deletion scheduled for ${dateTime.format(new Date(deletionAt))}`);
    expect(text).toContain('Billing stopped: no further charge');
    expect(text).not.toContain(dateTime.format(new Date(periodEnd)));
  });

  it('counts a day of daily backups by their own name, and backups with no known option as scheduled', () => {
    const day = hourlyBackups('2026-11-27').slice(0, 3);
    renderPage(<TimelinePanel timeline={{ tasks: [], events: day }} backupSchedule="nightly" />, '/');
    expect(screen.getByText('1 daily backup')).toBeTruthy();
    cleanup();
    renderPage(<TimelinePanel timeline={{ tasks: [], events: day }} />, '/');
    expect(screen.getByText('1 scheduled backup')).toBeTruthy();
  });
});
