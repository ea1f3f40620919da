import type { Config } from '../config';
import type { Db } from '../db/client';
import { createMockCloud } from './mockCloud';

export { ProviderError, type CloudProvider, type MachineSpec, type MachineState } from './types';
import type { CloudProvider } from './types';

/**
 * The provider serving a server's plan. Only mock-cloud exists today: the catalogue's gcp plans
 * are served by it too until a real GCP adapter is written (see README).
 */
export function createProviders(deps: { db: Db; config: Config }): (code: string | null | undefined) => CloudProvider {
  const mock = createMockCloud(deps);
  return () => mock;
}
