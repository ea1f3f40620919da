// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../src/serversI18n';
import { en, renderPage } from '../../../src/testing/renderPage';
import { dateTime } from '../../../src/ui/servers/status';
import { TimelinePanel } from './TimelinePanel';

const event = (kind: string, message: string | null) => ({ _id: `e-${kind}`, deploymentId: 'd-1', at: '2026-11-26T10:00:00.000Z', kind, fromStatus: null, toStatus: null, taskId: null, taskType: null, message, actorEmail: null });

afterEach(cleanup);

describe('the timeline', () => {
  it('tells the server’s notes in words: a deletion’s date formatted, health and retries as sentences', () => {
    const at = '2026-12-03T02:25:32.764Z';
    const events = [event('termination_scheduled', at), event('health', 'healthy'), event('health', 'unhealthy: no answer'), event('task_started', 'attempt 2'), event('note', 'verification record not found')];
    renderPage(<TimelinePanel timeline={{ tasks: [], events } as never} />, '/');
    const text = screen.getByTestId('timeline-panel').textContent ?? '';
    expect(text).toContain(en('deployment.timeline.kind.termination_scheduled', { date: dateTime.format(new Date(at)) }));
    expect(text).not.toContain(at);
    expect(text).toContain(en('deployment.health.healthy'));
    expect(text).toContain(`${en('deployment.health.unhealthy')}: no answer`);
    expect(text).toContain(en('deployment.timeline.attempt', { n: 2 }));
    expect(text).toContain(en('deployment.timeline.domainNotFound'));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
