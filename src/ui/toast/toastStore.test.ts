import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, dismissToast, getToasts, MAX_TOASTS, showToast, subscribeToasts } from './toastStore';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

describe('toast queue', () => {
  it('queues a toast with light, informational, auto-hide defaults', () => {
    const id = showToast('Saved');
    expect(getToasts()).toEqual([{ id, text: 'Saved', color: 'light', variant: 'informational', autoHide: true }]);
  });

  it('hides an auto-hide toast after 7000 ms, and keeps the others', () => {
    showToast({ text: 'Gone soon' });
    showToast({ text: 'Stays', autoHide: false, variant: 'destructive', color: 'dark' });
    vi.advanceTimersByTime(6999);
    expect(getToasts().map((t) => t.text)).toEqual(['Gone soon', 'Stays']);
    vi.advanceTimersByTime(1);
    expect(getToasts().map((t) => t.text)).toEqual(['Stays']);
    vi.advanceTimersByTime(60_000);
    expect(getToasts().map((t) => t.text)).toEqual(['Stays']);
  });

  it('replaces a toast shown again with the same id, restarting its timer', () => {
    showToast({ id: 'net', text: 'Offline' });
    vi.advanceTimersByTime(5000);
    showToast({ id: 'net', text: 'Still offline' });
    vi.advanceTimersByTime(5000);
    expect(getToasts().map((t) => t.text)).toEqual(['Still offline']);
    vi.advanceTimersByTime(2000);
    expect(getToasts()).toEqual([]);
  });

  it('dismisses by id and tells subscribers', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToasts(listener);
    const id = showToast('One');
    dismissToast(id);
    expect(getToasts()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('keeps at most the newest five', () => {
    for (let i = 1; i <= 7; i += 1) showToast(`Toast ${i}`);
    expect(getToasts().map((t) => t.text)).toEqual(['Toast 3', 'Toast 4', 'Toast 5', 'Toast 6', 'Toast 7']);
    expect(MAX_TOASTS).toBe(5);
  });
});
