import type { Database } from '../db/client';

export type HealthService = ReturnType<typeof createHealthService>;

/** What the health routes ask of the database: which kind it is, and whether it answers. */
export function createHealthService(deps: { database: Pick<Database, 'kind' | 'ping'> }) {
  const { database } = deps;
  return {
    kind: database.kind,
    ping: (): Promise<void> => database.ping(),
  };
}
