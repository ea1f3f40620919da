// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInDashboard } from '../renderInDashboard';
import { ReportsPage } from './ReportsPage';

afterEach(() => cleanup());
const click = (el: HTMLElement) => act(async () => void fireEvent.click(el));

describe('report manager', () => {
  it('lists the reports with their schedule, and checks a new report with the API’s rules before saving', async () => {
    const saveReport = vi.fn().mockResolvedValue({});
    await renderInDashboard(<ReportsPage />, { saveReport });
    expect(await screen.findByText('Monday numbers')).toBeTruthy();
    expect(screen.getByText('Mondays at 08:00 (Europe/Berlin)')).toBeTruthy();
    await click(screen.getAllByRole('button', { name: 'Create new report' })[0] as HTMLElement);
    const dialog = screen.getByRole('dialog');
    await click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter between 1 and 20 valid email addresses.')).toBeTruthy();
    expect(saveReport).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText(/^Report name/), { target: { value: 'Weekly' } });
    fireEvent.change(within(dialog).getByLabelText(/^Emails to receive the report/), { target: { value: 'a@example.com, b@example.com' } });
    fireEvent.change(within(dialog).getByLabelText(/^Time of day/), { target: { value: '07:45' } });
    fireEvent.change(within(dialog).getByLabelText('Time zone'), { target: { value: 'UTC' } });
    await click(within(dialog).getByLabelText(/^Events/));
    await click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(saveReport).toHaveBeenCalledWith(null, expect.objectContaining({ title: 'Weekly', emails: ['a@example.com', 'b@example.com'], metrics: ['analytics'], frequency: 'daily', hour: 7, minute: 45, timezone: 'UTC', dayOfWeek: null, enabled: true }));
  });

  it('switches a report on, and sends it now only after the confirmation', async () => {
    const setReportEnabled = vi.fn().mockResolvedValue({});
    const sendReport = vi.fn().mockResolvedValue(null);
    await renderInDashboard(<ReportsPage />, { setReportEnabled, sendReport });
    await click(await screen.findByLabelText('Send Daily sessions on its schedule'));
    expect(setReportEnabled).toHaveBeenCalledWith('00000000-0000-4000-8000-0000000000f2', true);
    await click(screen.getByRole('button', { name: 'Send now Monday numbers' }));
    await click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(sendReport).not.toHaveBeenCalled();
    await click(screen.getByRole('button', { name: 'Send now Monday numbers' }));
    expect(within(screen.getByRole('alertdialog')).getByText('Monday numbers will be mailed now to its 1 address, with the data of its last period.')).toBeTruthy();
    await click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Send now' }));
    expect(sendReport).toHaveBeenCalledWith('00000000-0000-4000-8000-0000000000f1');
  });

  it('deletes a report from its menu only after the confirmation, and shows its mail in the preview', async () => {
    const deleteReport = vi.fn().mockResolvedValue(null);
    const previewReport = vi.fn().mockResolvedValue({ subject: 'Beacon report: Monday numbers', text: 'Total sessions: 12', html: '' });
    await renderInDashboard(<ReportsPage />, { deleteReport, previewReport });
    expect(await screen.findByText('ada@lantern.example and 1 more')).toBeTruthy();
    await click(screen.getByRole('button', { name: 'More actions for Monday numbers' }));
    await click(screen.getByRole('menuitem', { name: 'Preview' }));
    expect(within(screen.getByRole('dialog')).getByText('Total sessions: 12')).toBeTruthy();
    await click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    await click(screen.getByRole('button', { name: 'More actions for Monday numbers' }));
    await click(screen.getByRole('menuitem', { name: 'Delete' }));
    await click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(deleteReport).not.toHaveBeenCalled();
    await click(screen.getByRole('button', { name: 'More actions for Monday numbers' }));
    await click(screen.getByRole('menuitem', { name: 'Delete' }));
    await click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(deleteReport).toHaveBeenCalledWith('00000000-0000-4000-8000-0000000000f1');
  });

  it('offers no changes in the read-only preview', async () => {
    await renderInDashboard(<ReportsPage />, {}, { writable: false });
    expect(await screen.findByText('Daily sessions')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create new report' })).toBeNull();
    expect((screen.getByLabelText('Send Daily sessions on its schedule') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send now Monday numbers' })).toBeNull();
  });
});
