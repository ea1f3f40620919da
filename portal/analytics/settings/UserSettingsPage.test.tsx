// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInDashboard } from '../renderInDashboard';
import { UserSettingsPage } from './UserSettingsPage';

afterEach(() => cleanup());
const type = (label: string, value: string) => fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
const typePassword = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));

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

  it('accepts only an API key of exactly 32 letters and digits', async () => {
    const setApiKey = vi.fn().mockResolvedValue({ apiKey: 'a'.repeat(32) });
    await renderInDashboard(<UserSettingsPage />, { setApiKey });
    type('API key', 'short-key');
    await click('Save');
    expect(screen.getByRole('alert').textContent).toBe('API key must be exactly 32 characters, letters and digits only.');
    expect(setApiKey).not.toHaveBeenCalled();
    type('API key', 'Ab3'.repeat(10) + 'Z9');
    await click('Save');
    expect(setApiKey).toHaveBeenCalledWith('Ab3'.repeat(10) + 'Z9');
  });
});
