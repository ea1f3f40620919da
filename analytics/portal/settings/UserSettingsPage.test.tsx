// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInDashboard } from '../renderInDashboard';
import { UserSettingsPage } from './UserSettingsPage';

afterEach(() => cleanup());
const typePassword = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));
const click2 = (element: HTMLElement) => act(async () => void fireEvent.click(element));

describe('user settings', () => {
  it("refuses a confirmation that differs with 'Passwords do not match', sending nothing", async () => {
    const changePassword = vi.fn();
    await renderInDashboard(<UserSettingsPage />, { changePassword });
    typePassword('Old password', 'Old-pass-1');
    typePassword('New password', 'New-pass-1');
    typePassword('Confirm new password', 'New-pass-2');
    await click('Change password');
    expect(screen.getByRole('alert').textContent).toBe('Passwords do not match');
    expect(changePassword).not.toHaveBeenCalled();
  });

  it('changes the password when both entries match', async () => {
    const changePassword = vi.fn().mockResolvedValue(null);
    await renderInDashboard(<UserSettingsPage />, { changePassword });
    typePassword('Old password', 'Old-pass-1');
    typePassword('New password', 'New-pass-1');
    typePassword('Confirm new password', 'New-pass-1');
    await click('Change password');
    expect(changePassword).toHaveBeenCalledWith({ oldPassword: 'Old-pass-1', newPassword: 'New-pass-1', confirmation: 'New-pass-1' });
  });

  it('has no field to choose an API key: it generates one after the confirmation and shows it once', async () => {
    const regenerateApiKey = vi.fn().mockResolvedValue({ apiKey: 'Ab3'.repeat(10) + 'Z9' });
    await renderInDashboard(<UserSettingsPage />, { regenerateApiKey });
    expect(screen.queryByRole('textbox', { name: 'API key' })).toBeNull();
    await click('Generate a new key');
    await click2(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Generate a new key' }));
    expect(regenerateApiKey).toHaveBeenCalledTimes(1);
    expect((screen.getByRole('textbox', { name: 'API key' }) as HTMLInputElement).value).toBe('Ab3'.repeat(10) + 'Z9');
  });
});
