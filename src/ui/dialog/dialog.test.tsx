// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import { DialogHost } from './DialogHost';
import { closeDialog, confirm, getDialogs, openDialog, showMessage } from './dialogStore';

afterEach(() => {
  cleanup();
  act(() => {
    for (const d of getDialogs()) closeDialog(d.id, false);
  });
});

describe('dialogs', () => {
  it('confirm() resolves true on the confirm button, with the given labels', async () => {
    renderUi(<DialogHost />);
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm({ type: 'danger', title: 'Delete server?', message: 'This cannot be undone.', labels: { confirm: 'Delete', cancel: 'Keep' } });
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Delete server?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('This cannot be undone.')).toBeTruthy();
    // Danger starts on the safe answer.
    expect(document.activeElement?.textContent).toBe('Keep');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('confirm() resolves false on cancel and on Escape', async () => {
    renderUi(<DialogHost />);
    let first!: Promise<boolean>;
    let second!: Promise<boolean>;
    act(() => {
      first = confirm({ title: 'Leave?', message: 'Unsaved changes.' });
      second = confirm({ title: 'Really?', message: 'Second question.' });
    });
    // One at a time, oldest first, with the default labels.
    expect(screen.getByRole('alertdialog', { name: 'Leave?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dialog.cancel') }));
    await expect(first).resolves.toBe(false);
    expect(screen.getByRole('button', { name: en('widgets.dialog.confirm') })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('alertdialog', { name: 'Really?' }), { key: 'Escape' });
    await expect(second).resolves.toBe(false);
  });

  it('a message dialog has one OK button and calls back', async () => {
    renderUi(<DialogHost />);
    const callback = vi.fn();
    act(() => void openDialog({ intent: 'message', type: 'success', title: 'Server created', message: 'It is ready.', callback }));
    expect(screen.getByRole('dialog', { name: 'Server created' })).toBeTruthy();
    expect(screen.getAllByRole('button')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dialog.ok') }));
    expect(callback).toHaveBeenCalledWith(true);
    let done!: Promise<void>;
    act(() => {
      done = showMessage({ title: 'Note', message: 'Done.' });
    });
    fireEvent.click(screen.getByRole('button', { name: en('widgets.dialog.ok') }));
    await expect(done).resolves.toBeUndefined();
  });
});
