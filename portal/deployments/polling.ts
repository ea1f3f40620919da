import { TIMINGS } from '../../src/domain/constants';
import { isBusy } from '../../src/ui/servers/status';
import type { DeploymentView } from '../../dataProvider/deployments';

/** While a server works on a task its page follows closely; otherwise as often as company data. */
export const BUSY_POLL_MS = 2_000;
export const IDLE_POLL_MS = TIMINGS.companyRefreshMs;

/** A list query's polling pace: closely until the first answer and while a shown server works. */
export const serverPollMs = (rows: readonly DeploymentView[] | undefined): number => (!rows || rows.some(isBusy) ? BUSY_POLL_MS : IDLE_POLL_MS);
