// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../src/serversI18n';
import type { BackupDto, DeploymentActionAnswer, DeploymentPopulated } from '../../../dataProvider/deployments';
import { errorReply, mockRoutes, okReply } from '../../../src/testing/fetchMock';
import { en, renderPage } from '../../../src/testing/renderPage';
import { DialogHost } from '../../../src/ui/dialog/DialogHost';
import { closeDialog, getDialogs } from '../../../src/ui/dialog/dialogStore';
import { dateTime } from '../../../src/ui/servers/status';
import { clearToasts, getToasts } from '../../../src/ui/toast/toastStore';
import { testServer } from '../testServers';
import { BackupsPanel } from './BackupsPanel';

const backup = (over: Partial<BackupDto>): BackupDto => ({
  _id: 'b-1',
  deploymentId: 'd-1',
  kind: 'nightly',
  status: 'completed',
  sizeBytes: 1_234_567,
  createdAt: '2026-11-27T02:00:00.000Z',
  completedAt: '2026-11-27T02:01:00.000Z',
  takenAt: '2026-11-27T02:00:30.000Z',
  error: null,
  restorable: true,
  ...over,
});
const takenText = dateTime.format(new Date('2026-11-27T02:00:30.000Z'));

/** The panel as the server page holds it: an action's answer replaces the server shown. */
function Page({ server, backups, canEdit = true }: { server: DeploymentPopulated; backups: BackupDto[]; canEdit?: boolean }) {
  const [d, setD] = useState(server);
  return (
    <>
      <BackupsPanel deployment={d} backups={backups} canEdit={canEdit} onAnswer={(a: DeploymentActionAnswer) => setD({ ...d, ...a.deployment })} />
      <DialogHost />
    </>
  );
}
const show = (backups: BackupDto[], server = testServer(), canEdit = true) => renderPage(<Page server={server} backups={backups} canEdit={canEdit} />, '/');

afterEach(() => {
  cleanup();
  act(() => {
    for (const d of getDialogs()) closeDialog(d.id, false);
  });
  clearToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the backups panel', () => {
  it('lists each backup with the time its data was read, kind, status, size, and why a failed one failed', () => {
    show([
      backup({ _id: 'b-3', kind: 'manual', status: 'pending', sizeBytes: null, takenAt: null, completedAt: null, createdAt: '2026-11-28T09:00:00.000Z', restorable: false }),
      backup({ _id: 'b-2', kind: 'hourly', status: 'failed', sizeBytes: null, takenAt: null, completedAt: null, error: 'the backup store refused the archive', restorable: false }),
      backup({}),
    ]);
    const rows = screen.getAllByTestId('backup');
    expect(rows.map((r) => r.dataset.status)).toEqual(['pending', 'failed', 'completed']);
    expect(within(rows[0] as HTMLElement).getByTestId('backup-time').textContent).toBe(dateTime.format(new Date('2026-11-28T09:00:00.000Z')));
    expect(within(rows[0] as HTMLElement).getByTestId('backup-facts').textContent).toBe(en('deployment.backups.kind.manual'));
    expect(within(rows[1] as HTMLElement).getByTestId('backup-error').textContent).toBe(en('deployment.backups.failedBecause', { error: 'the backup store refused the archive' }));
    expect(within(rows[2] as HTMLElement).getByTestId('backup-time').textContent).toBe(takenText);
    expect(within(rows[2] as HTMLElement).getByTestId('backup-facts').textContent).toBe(`${en('deployment.backups.kind.nightly')} · 1.2 MB`);
    // Only a restorable backup offers Restore and Download.
    expect(screen.getAllByRole('button', { name: en('deployment.backups.restore') })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: en('deployment.backups.download') })).toHaveLength(1);
    expect(within(rows[2] as HTMLElement).getByRole('button', { name: en('deployment.backups.restore') })).toBeTruthy();
  });

  it('says what a restore loses, with the backup’s time, and restores once confirmed', async () => {
    const api = mockRoutes({ 'POST /deployments/d-1/restore': okReply({ deployment: testServer({ status: 'restoring' }), task: null }) });
    show([backup({})]);
    fireEvent.click(screen.getByRole('button', { name: en('deployment.backups.restore') }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(`Data received after ${takenText} is removed: events, sessions and app users sent since then will be gone.`);
    expect(dialog.textContent).toContain(en('deployment.restoreBackupTitle', { name: 'Shop analytics', date: takenText }));
    fireEvent.click(within(dialog).getByRole('button', { name: en('deployment.restore') }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/deployments/d-1/restore')).toHaveLength(1));
    expect(api.calls.at(-1)?.body).toEqual({ backupId: 'b-1' });
  });

  it('backs up now without a question and shows the backup in progress until it completes', async () => {
    const api = mockRoutes({
      'POST /deployments/d-1/backups': okReply({ deployment: testServer({ latestTask: { _id: 't-1', type: 'backup', status: 'queued', progress: 0, lastError: null, createdAt: '2026-11-28T09:00:00.000Z', finishedAt: null } }), task: null }),
    });
    show([]);
    fireEvent.click(screen.getByRole('button', { name: en('deployment.backups.backUpNow') }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v1/deployments/d-1/backups')).toHaveLength(1));
    expect(getDialogs()).toHaveLength(0);
    const button = await screen.findByTestId('backup-now');
    await waitFor(() => expect(button.textContent).toBe(en('deployment.backups.backingUp')));
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(getToasts().map((t) => t.text)).toContain(en('deployment.backups.backUpQueued'));
  });

  it('says why Back up now waits, and offers it to admins of a server with the option only', () => {
    const restarting = testServer({ latestTask: { _id: 't-1', type: 'restart', status: 'running', progress: 40, lastError: null, createdAt: '2026-11-28T09:00:00.000Z', finishedAt: null } });
    show([backup({})], restarting);
    expect(screen.getByTestId('backup-now').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('backup-now-reason').textContent).toBe(en('deployment.backups.whenIdle', { task: en('servers.task.restart') }));
    cleanup();
    show([backup({})], testServer(), false);
    expect(screen.queryByTestId('backup-now')).toBeNull();
    expect(screen.queryByRole('button', { name: en('deployment.backups.download') })).toBeNull();
    cleanup();
    show([], testServer({ backupsEnabled: false }));
    expect(screen.queryByTestId('backup-now')).toBeNull();
    expect(screen.getByText(en('deployment.backups.disabled'))).toBeTruthy();
  });

  it('downloads through the signed link, and says so when the link is refused', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    let refuse = false;
    mockRoutes({
      'POST /deployments/d-1/backups/b-1/download': () =>
        refuse ? errorReply(403, 'FORBIDDEN_ROLE', 'Only workspace admins can do this.') : okReply({ url: '/api/v1/backups/download?backup=b-1&exp=1&sig=s', expiresAt: '2026-11-28T09:15:00.000Z' }),
    });
    show([backup({})]);
    fireEvent.click(screen.getByRole('button', { name: en('deployment.backups.download') }));
    await waitFor(() => expect(clicked).toEqual(['/api/v1/backups/download?backup=b-1&exp=1&sig=s']));
    refuse = true;
    fireEvent.click(screen.getByRole('button', { name: en('deployment.backups.download') }));
    await waitFor(() => expect(getToasts().map((t) => t.text)).toContain(`${en('deployment.backups.downloadFailed')} Only workspace admins can do this.`));
  });
});
