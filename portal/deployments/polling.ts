import { useState } from 'react';
import { TIMINGS } from '../../src/domain/constants';
import { isBusy } from '../../src/ui/servers/status';
import { usePolling, type Polled } from '../../src/ui/usePolling';
import type { DeploymentView } from '../../dataProvider/deployments';

/** While a server works on a task its page follows closely; otherwise as often as company data. */
export const BUSY_POLL_MS = 2_000;
export const IDLE_POLL_MS = TIMINGS.companyRefreshMs;

/**
 * usePolling whose pace follows the data: every BUSY_POLL_MS while `busy(data)` holds (a task
 * runs), else every IDLE_POLL_MS. Until the first answer it polls closely.
 */
export function useServerPolling<T>(key: string | null, load: (key: string) => Promise<T>, busy: (data: T) => boolean): Polled<T> & { busy: boolean } {
  const [fast, setFast] = useState(true);
  const polled = usePolling(key, load, fast ? BUSY_POLL_MS : IDLE_POLL_MS);
  const now = polled.data === undefined ? fast : busy(polled.data);
  // Adjusting state while rendering (React's pattern for state derived from changing input).
  if (now !== fast) setFast(now);
  return { ...polled, busy: now };
}

/** A list query's polling pace: closely until the first answer and while a shown server works. */
export const serverPollMs = (rows: readonly DeploymentView[] | undefined): number => (!rows || rows.some(isBusy) ? BUSY_POLL_MS : IDLE_POLL_MS);
