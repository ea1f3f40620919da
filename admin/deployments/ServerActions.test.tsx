// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminDeploymentDetail } from '../../src/domain/admin/deployments';
import { renderInAdmin } from '../testing';
import { ServerActions } from './ServerActions';

// The confirmation is the dialog store's: answered "yes" here, its own tests cover the dialog.
const confirm = vi.hoisted(() => vi.fn(async () => true));
vi.mock('../../src/ui/dialog/dialogStore', () => ({ confirm }));

const task = (status: 'failed' | 'completed') => ({
  _id: 't-1',
  deploymentId: 'd-1',
  type: 'provision' as const,
  status,
  attempts: 2,
  progress: 0,
  steps: [],
  lastError: status === 'failed' ? 'boom' : null,
  requestedBy: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
});

function server(status: AdminDeploymentDetail['status'], latest: 'failed' | 'completed') {
  return { id: 'd-1', _id: 'd-1', name: 'Alpha', status, url: status === 'running' ? 'https://alpha.example' : null, terminationScheduledAt: null, restorableUntil: null, tasks: [task(latest)] } as unknown as AdminDeploymentDetail & { id: string };
}

function renderActions(deployment: AdminDeploymentDetail & { id: string }) {
  const recordAction = vi.fn(async () => ({ data: deployment }));
  const onDone = vi.fn();
  renderInAdmin(<ServerActions deployment={deployment} onDone={onDone} />, recordAction);
  return { recordAction, onDone };
}

afterEach(() => {
  cleanup();
  confirm.mockClear();
});

describe("the admin server page's actions", () => {
  it('restarts a running server through the data provider after a confirmation, and offers no retry', async () => {
    const { recordAction, onDone } = renderActions(server('running', 'completed'));
    expect(screen.queryByRole('button', { name: 'Force retry' })).toBeNull();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Restart' })));
    await waitFor(() => expect(recordAction).toHaveBeenCalledWith('admin/deployments', { id: 'd-1', action: 'restart' }));
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Restart Alpha?' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it("force-retries a failed server's failed task; the machine actions wait", async () => {
    const { recordAction } = renderActions(server('error_initializing', 'failed'));
    expect(screen.getByRole('button', { name: 'Restart' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Health check' })).toHaveProperty('disabled', true);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Force retry' })));
    await waitFor(() => expect(recordAction).toHaveBeenCalledWith('admin/deploymentTasks', { id: 't-1', action: 'retry' }));
  });

  it('asks before deleting and sends nothing when the admin says no', async () => {
    confirm.mockResolvedValueOnce(false);
    const { recordAction } = renderActions(server('running', 'completed'));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ type: 'danger', title: 'Delete Alpha?' }));
    expect(recordAction).not.toHaveBeenCalled();
  });
});
