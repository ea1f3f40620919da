import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../src/ui/form/messages';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` now and whenever `key` changes (a string naming what is loaded, e.g. app and period);
 * a late answer for an older key is dropped. `load` null means nothing to load yet.
 */
export function useLoad<T>(load: (() => Promise<T>) | null, key: string): Loaded<T> {
  const { t } = useTranslation();
  const [state, setState] = useState<{ settled: string; data: T | null; error: string | null }>({ settled: '', data: null, error: null });
  const [round, setRound] = useState(0);
  // Loading until the answer for this key and round is in; the last answer stays shown meanwhile.
  const current = `${key}#${round}`;
  useEffect(() => {
    if (!load) return;
    let live = true;
    load().then(
      (data) => live && setState({ settled: current, data, error: null }),
      (error: unknown) => live && setState({ settled: current, data: null, error: failureMessage(error, t) }),
    );
    return () => {
      live = false;
    };
    // `load` is a new closure each render; `key` says when it means something new.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.settled !== current, reload };
}
