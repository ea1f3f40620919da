import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { TIMINGS } from '../domain/constants';

export interface Debounced<A extends unknown[]> {
  /** Restarts the wait; `fn` runs with the last arguments once the wait ends. */
  call: (...args: A) => void;
  cancel: () => void;
}

/** Debounces `fn` (SPEC §9: search, remote select and table controls wait 500 ms). */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, delayMs: number = TIMINGS.searchDebounceMs): Debounced<A> {
  const latest = useRef(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The newest fn runs when the timer fires, without restarting the wait on each render.
  useLayoutEffect(() => {
    latest.current = fn;
  });
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);
  return useMemo(
    () => ({
      call: (...args: A) => {
        cancel();
        timer.current = setTimeout(() => {
          timer.current = null;
          latest.current(...args);
        }, delayMs);
      },
      cancel,
    }),
    [cancel, delayMs],
  );
}
