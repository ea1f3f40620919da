// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePolling } from './usePolling';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Lets resolved loads reach React. */
const flush = () => act(async () => void (await vi.advanceTimersByTimeAsync(0)));

describe('usePolling', () => {
  it('loads at once, then every interval, and stops on unmount', async () => {
    let n = 0;
    const load = vi.fn(async (key: string) => ({ key, n: (n += 1) }));
    const { result, unmount } = renderHook(() => usePolling('a', load, 10_000));
    await flush();
    expect(result.current.data).toEqual({ key: 'a', n: 1 });
    await act(async () => void (await vi.advanceTimersByTimeAsync(9_999)));
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    expect(result.current.data).toEqual({ key: 'a', n: 2 });
    unmount();
    await act(async () => void (await vi.advanceTimersByTimeAsync(30_000)));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps the same object when a poll brings nothing new', async () => {
    const load = vi.fn(async () => ({ name: 'Acme', members: [1, 2] }));
    const { result } = renderHook(() => usePolling('a', load, 1_000));
    await flush();
    const first = result.current.data;
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current.data).toBe(first);
  });

  it('keeps the data when a poll fails, and reports the error until the next success', async () => {
    const load = vi.fn<(key: string) => Promise<string>>().mockResolvedValueOnce('one').mockRejectedValueOnce(new Error('offline')).mockResolvedValue('two');
    const { result } = renderHook(() => usePolling('a', load, 1_000));
    await flush();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(result.current.data).toBe('one');
    expect(result.current.error).toEqual(new Error('offline'));
    await act(async () => void (await vi.advanceTimersByTimeAsync(1_000)));
    expect(result.current).toMatchObject({ data: 'two', error: undefined });
  });

  it('starts over for a new key and drops a late answer for the old one', async () => {
    const resolvers: Record<string, (v: string) => void> = {};
    const load = vi.fn((key: string) => new Promise<string>((resolve) => (resolvers[key] = resolve)));
    const { result, rerender } = renderHook(({ k }) => usePolling(k, load, 10_000), { initialProps: { k: 'a' } });
    rerender({ k: 'b' });
    expect(result.current.data).toBeUndefined();
    await act(async () => resolvers.a?.('for a'));
    expect(result.current.data).toBeUndefined();
    await act(async () => resolvers.b?.('for b'));
    expect(result.current.data).toBe('for b');
  });

  it('does not overlap a slow load, and reload and put update at once', async () => {
    let resolveSlow: (v: string) => void = () => undefined;
    const load = vi
      .fn<(key: string) => Promise<string>>()
      .mockImplementationOnce(() => new Promise((resolve) => (resolveSlow = resolve)))
      .mockResolvedValue('fresh');
    const { result } = renderHook(() => usePolling('a', load, 1_000));
    await act(async () => void (await vi.advanceTimersByTimeAsync(3_000)));
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => resolveSlow('slow'));
    expect(result.current.data).toBe('slow');
    await act(() => result.current.reload());
    expect(result.current.data).toBe('fresh');
    act(() => result.current.put('saved'));
    expect(result.current.data).toBe('saved');
  });

  it('loads nothing without a key', async () => {
    const load = vi.fn(async () => 'x');
    const { result } = renderHook(() => usePolling(null, load, 1_000));
    await act(async () => void (await vi.advanceTimersByTimeAsync(5_000)));
    expect(load).not.toHaveBeenCalled();
    expect(result.current.data).toBeUndefined();
  });
});
