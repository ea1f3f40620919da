import { eq } from 'drizzle-orm';
import type { ServerAnalyticsState } from '../../domain/serverAccess';
import { VersionedCache, type ChangeFeed } from '../../../server/db/changes';
import type { Db } from '../../../server/db/client';
import { analyticsApps, analyticsTenants } from '../../../server/db/schema';
import { serverStateOf, type App } from './access';

/**
 * What ingestion keeps about an app between requests, so a request whose event keys and segment
 * values are all known is one statement: the app itself (found by its key), the event keys known
 * to exist with their omitted segments, and the segment values known to exist. Keys and values
 * are learned from the database as requests bring them, after the transaction that read or added
 * them committed. Any change to the app, its tenant, its event definitions or segment values, or
 * its server's or subscription's state (update or delete, seen in the SQL sent: db/changes.ts)
 * drops every entry at once; another
 * process's change is seen within `INGEST_CACHE_MS`.
 */
export interface AppEntry {
  app: App;
  /** The server the app belongs to. */
  deploymentId: string;
  /** The server's state: only a live, paid-for server takes data (analyticsAccessFor). */
  server: ServerAnalyticsState;
  /** Event key → omitted segments. */
  keys: Map<string, string[]>;
  /** `key \0 segment \0 value` triples known to exist. */
  values: Set<string>;
}

export const INGEST_CACHE_MS = 5_000;
/** Values kept per app: past it, unknown ones are looked up in the database (still correct, slower). */
export const MAX_KEPT_VALUES = 50_000;

export const valueId = (key: string, segment: string, value: string) => `${key}\u0000${segment}\u0000${value}`;

export interface IngestCache {
  app(db: Db, appKey: string): Promise<AppEntry | null>;
  /** When this process last wrote the app's last data date (ms), to write it at most once a minute. */
  lastData: Map<string, number>;
}

export function createIngestCache(feed: ChangeFeed): IngestCache {
  const entries = new VersionedCache<AppEntry>(feed, INGEST_CACHE_MS, 5_000);
  return {
    app: (db, appKey) =>
      entries.load(appKey, async () => {
        const [row] = await db.select({ app: analyticsApps, deploymentId: analyticsTenants.deploymentId }).from(analyticsApps).innerJoin(analyticsTenants, eq(analyticsTenants.id, analyticsApps.tenantId)).where(eq(analyticsApps.key, appKey));
        const server = row ? await serverStateOf(db, row.deploymentId) : null;
        return row && server ? { app: row.app, deploymentId: row.deploymentId, server, keys: new Map(), values: new Set() } : null;
      }),
    lastData: new Map(),
  };
}

/** Adds what a committed transaction found or made to the entry it was read for. */
export function learn(entry: AppEntry, keys: Map<string, string[]>, values: Iterable<string>): void {
  for (const [key, omitted] of keys) entry.keys.set(key, omitted);
  for (const v of values) {
    if (entry.values.size >= MAX_KEPT_VALUES) break;
    entry.values.add(v);
  }
}
