// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInDashboard } from '../renderInDashboard';
import { EventGroupsPage } from './EventGroupsPage';

afterEach(() => cleanup());

describe('event groups', () => {
  it('asks for at least 2 events before saving a group', async () => {
    const saveGroup = vi.fn().mockResolvedValue({});
    await renderInDashboard(<EventGroupsPage />, { saveGroup });
    await act(async () => void fireEvent.click((await screen.findAllByRole('button', { name: 'Create event group' }))[0] as HTMLElement));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Money' } });
    fireEvent.click(await within(dialog).findByLabelText('Purchase'));
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    expect(within(dialog).getByRole('alert').textContent).toBe('An event group needs at least 2 events.');
    expect(saveGroup).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByLabelText('Subscription cancelled'));
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    expect(saveGroup).toHaveBeenCalledWith('00000000-0000-4000-8000-000000000a01', null, expect.objectContaining({ name: 'Money', eventKeys: ['purchase', 'subscription_cancelled'] }));
  });

  it('offers no changes in the read-only preview', async () => {
    await renderInDashboard(<EventGroupsPage />, {}, { writable: false });
    expect(await screen.findByText('Notes activity')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create event group' })).toBeNull();
  });
});
