// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInDashboard } from '../renderInDashboard';
import { AppUsersPage } from './AppUsersPage';
import { exportFileName } from './exportFileName';

afterEach(() => cleanup());
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));

async function findDevice() {
  fireEvent.change(screen.getByLabelText('Device ID'), { target: { value: 'dev-1' } });
  await click('Find');
  await screen.findByText('Stored events');
}

describe('app users', () => {
  it('purges only after the confirmation, and not when it is cancelled', async () => {
    const purgeAppUser = vi.fn().mockResolvedValue(null);
    await renderInDashboard(<AppUsersPage />, { purgeAppUser });
    await findDevice();
    await click('Purge data');
    await act(async () => void fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })));
    expect(purgeAppUser).not.toHaveBeenCalled();
    await click('Purge data');
    await act(async () => void fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Purge data' })));
    expect(purgeAppUser).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000a01', 'dev-1');
    expect(screen.queryByText('Stored events')).toBeNull();
  });

  it('shows the downloading view while the export job runs, then offers the file', async () => {
    const job = { _id: 'j1', appId: 'a', kind: 'export' as const, params: {}, createdAt: '2026-11-23T10:00:00.000Z', finishedAt: null, downloadUrl: null };
    const exportAppUser = vi.fn().mockResolvedValue({ ...job, status: 'running' });
    const listJobs = vi.fn().mockResolvedValue([{ ...job, status: 'completed' }]);
    await renderInDashboard(<AppUsersPage />, { exportAppUser, listJobs });
    await findDevice();
    await click('Export data');
    expect(screen.getByText('Downloading the export…')).toBeTruthy();
    expect(await screen.findByText('Your export is ready.', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('names the export file with its date', () => {
    expect(exportFileName('dev/1', '2026-11-23T10:00:00.000Z')).toBe('export-dev_1-2026-11-23.json');
  });
});
