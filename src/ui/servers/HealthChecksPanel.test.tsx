// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../serversI18n';
import type { HealthCheckDto } from '../../domain/deployments/schemas';
import { en, renderUi } from '../testUtils';
import { HealthChecksPanel } from './HealthChecksPanel';

const check = (n: number, healthy = true): HealthCheckDto => ({
  _id: `h-${n}`,
  deploymentId: 'd-1',
  taskId: null,
  healthy,
  reason: healthy ? null : 'queued jobs are late: 1 server task',
  checkedAt: new Date(Date.UTC(2026, 10, 20, 12, 0) - n * 900_000).toISOString(),
  probes: [
    { name: 'sdk', ok: true, latencyMs: 8.25, detail: null },
    { name: 'read', ok: true, latencyMs: 0.4, detail: null },
    { name: 'jobs', ok: healthy, latencyMs: 123.4, detail: healthy ? null : 'queued jobs are late: 1 server task' },
  ],
});

afterEach(cleanup);

describe('HealthChecksPanel', () => {
  it('says when there is no check yet', () => {
    renderUi(<HealthChecksPanel checks={[]} />);
    expect(screen.getByText(en('deployment.healthChecks.none'))).toBeTruthy();
  });

  it('shows the last five checks, each probe with its latency, and all of them on demand', () => {
    renderUi(<HealthChecksPanel checks={[check(0, false), ...Array.from({ length: 7 }, (_, i) => check(i + 1))]} />);
    expect(screen.getAllByTestId('health-check')).toHaveLength(5);
    const [first] = screen.getAllByTestId('health-check');
    expect(first?.dataset.healthy).toBe('false');
    expect(screen.getByTestId('health-reason').textContent).toBe('queued jobs are late: 1 server task');
    const probes = screen.getAllByTestId('health-probe').slice(0, 3);
    expect(probes.map((p) => [p.dataset.probe, p.dataset.ok])).toEqual([
      ['sdk', 'true'],
      ['read', 'true'],
      ['jobs', 'false'],
    ]);
    expect(probes[0]?.textContent).toContain(en('deployment.healthChecks.latency', { ms: '8.3' }));
    expect(probes[1]?.textContent).toContain(en('deployment.healthChecks.latency', { ms: '0.4' }));
    expect(probes[2]?.textContent).toContain(en('deployment.healthChecks.latency', { ms: '123' }));
    fireEvent.click(screen.getByRole('button', { name: en('deployment.healthChecks.showAll', { count: 8 }) }));
    expect(screen.getAllByTestId('health-check')).toHaveLength(8);
  });
});
