// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedCallback } from './useDebouncedCallback';
import { useTimedMessage } from './useTimedMessage';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useDebouncedCallback', () => {
  it('runs once, 500 ms after the last call, with the last arguments', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const { result } = renderHook(() => useDebouncedCallback(fn));
    result.current.call('a');
    vi.advanceTimersByTime(300);
    result.current.call('ab');
    vi.advanceTimersByTime(499);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('ab');
  });

  it('never fires after cancel or unmount', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const { result, unmount } = renderHook(() => useDebouncedCallback(fn));
    result.current.call(1);
    result.current.cancel();
    result.current.call(2);
    unmount();
    vi.advanceTimersByTime(5000);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('useTimedMessage', () => {
  it('clears the message after its duration, restarting when shown again', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useTimedMessage<string>(3000));
    act(() => result.current[1]('first'));
    act(() => vi.advanceTimersByTime(2000));
    act(() => result.current[1]('second'));
    act(() => vi.advanceTimersByTime(2999));
    expect(result.current[0]).toBe('second');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[0]).toBeNull();
  });
});
