import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Polled<T> {
  /** The last loaded data of the current key; undefined until the first answer. */
  data: T | undefined;
  /** The error of the last load, cleared by the next success. */
  error: unknown;
  /** Loads now (e.g. after a change the user made) and resolves once the answer is in. */
  reload: () => Promise<void>;
  /** Puts data in at once, e.g. what a save answered, without waiting for the next poll. */
  put: (data: T) => void;
}

interface State<T> {
  key: string | null;
  data?: T;
  error?: unknown;
}

/** Equal answers keep the old object, so a poll that found nothing new renders nothing new. */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Loads `load(key)` and again every `intervalMs` while mounted (SPEC §7, §9: company data is
 * refreshed every 10000 ms). A new key starts over; answers for an old key, or after unmount, are
 * dropped. A poll skips a hidden tab and never overlaps the load in flight.
 */
export function usePolling<T>(key: string | null, load: (key: string) => Promise<T>, intervalMs: number): Polled<T> {
  const [state, setState] = useState<State<T>>({ key: null });
  const latestLoad = useRef(load);
  const live = useRef<{ key: string | null; inFlight: Promise<void> | null }>({ key: null, inFlight: null });
  useLayoutEffect(() => {
    latestLoad.current = load;
  });

  const run = useCallback((k: string): Promise<void> => {
    const request = latestLoad.current(k).then(
      (data) => {
        if (live.current.key !== k) return;
        setState((prev) => {
          if (prev.key === k && same(prev.data, data)) return prev.error === undefined ? prev : { ...prev, error: undefined };
          return { key: k, data };
        });
      },
      (error: unknown) => {
        if (live.current.key !== k) return;
        setState((prev) => (prev.key === k ? { ...prev, error } : { key: k, error }));
      },
    );
    const tracked = request.finally(() => {
      if (live.current.inFlight === tracked) live.current.inFlight = null;
    });
    live.current.inFlight = tracked;
    return tracked;
  }, []);

  useEffect(() => {
    live.current = { key, inFlight: null };
    if (key === null) return;
    void run(key);
    const timer = setInterval(() => {
      if (live.current.inFlight || (typeof document !== 'undefined' && document.hidden)) return;
      void run(key);
    }, intervalMs);
    return () => {
      clearInterval(timer);
      live.current = { key: null, inFlight: null };
    };
  }, [key, intervalMs, run]);

  const reload = useCallback(() => (key === null ? Promise.resolve() : run(key)), [key, run]);
  const put = useCallback(
    (data: T) => {
      if (key !== null) setState((prev) => (prev.key === key && same(prev.data, data) ? prev : { key, data }));
    },
    [key],
  );
  const current = state.key === key ? state : null;
  return { data: current?.data, error: current?.error, reload, put };
}
