// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, renderUi } from '../testUtils';
import { ToastHost } from './ToastHost';
import { clearToasts, showToast } from './toastStore';

afterEach(() => {
  cleanup();
  act(() => clearToasts());
  vi.useRealTimers();
});

describe('ToastHost', () => {
  it('shows toasts pushed from outside React and hides them after 7 seconds', () => {
    vi.useFakeTimers();
    renderUi(<ToastHost />);
    act(() => void showToast({ text: 'Deployment restarted', variant: 'successful' }));
    const region = screen.getByRole('region', { name: en('widgets.toast.region') });
    expect(within(region).getByRole('status').textContent).toContain('Deployment restarted');
    act(() => vi.advanceTimersByTime(6999));
    expect(screen.queryByText('Deployment restarted')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Deployment restarted')).toBeNull();
  });

  it('announces destructive toasts as alerts and closes them with the close button', () => {
    renderUi(<ToastHost />);
    act(() => void showToast({ text: 'Server detail could not be loaded.', variant: 'destructive', color: 'dark', autoHide: false }));
    expect(screen.getByRole('alert').textContent).toContain('Server detail could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: en('widgets.toast.close') }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
