import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself `durationMs` after it was last shown (e.g. the 3-second range warning). */
export function useTimedMessage<M>(durationMs: number): [M | null, (message: M) => void] {
  const [message, setMessage] = useState<M | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  const show = useCallback(
    (next: M) => {
      if (timer.current !== null) clearTimeout(timer.current);
      setMessage(next);
      timer.current = setTimeout(() => {
        timer.current = null;
        setMessage(null);
      }, durationMs);
    },
    [durationMs],
  );
  return [message, show];
}
