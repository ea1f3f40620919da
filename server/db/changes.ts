import type { Logger } from 'drizzle-orm';

/**
 * Which writes can change what a signed-in request reads about its session: the session row, its
 * user, and the user's companies (the `/auth/me` answer). A new session or a new user changes no
 * existing entry, and the once-a-minute `last_seen_at` touch is taken care of by the reader itself.
 */
const WATCHED_WRITE = /^\s*(?:update|delete\s+from|insert\s+into|truncate(?:\s+table)?)\s+"?(users|sessions|company_members|companies)"?[\s(]/i;
const HARMLESS = [/^\s*insert\s+into\s+"?(users|sessions)"?[\s(](?![\s\S]*\bon\s+conflict\b)/i, /^\s*update\s+"sessions"\s+set\s+"last_seen_at"\s*=\s*now\(\)\s+where\s+"sessions"\."id"\s*=\s*\$1\s*$/i];

export function isWatchedWrite(sqlText: string): boolean {
  return WATCHED_WRITE.test(sqlText) && !HARMLESS.some((pattern) => pattern.test(sqlText));
}

/**
 * Which writes can change what ingestion keeps about an app (analytics/server/services/ingestCache.ts):
 * the app row (key, time zone, salt, limits, lock), its tenant, its event definitions (omitted
 * segments) and known segment values, its server's and subscription's state (which decide whether
 * it takes data); and the deletes that cascade to them. Inserts add keys and
 * values, which the cache learns itself, and never change a kept one. Ingestion's own
 * once-a-minute `last_data_at` touch changes nothing ingestion decides on.
 */
const ANALYTICS_WRITE = /^\s*(?:update|delete\s+from|truncate(?:\s+table)?)\s+"?(analytics_apps|analytics_tenants|analytics_events|analytics_segment_values|deployments|subscriptions)"?[\s(]/i;
const ANALYTICS_HARMLESS = /^\s*update\s+"analytics_apps"\s+set\s+"last_data_at"\s*=\s*\$1\s+where/i;

export function isAnalyticsWrite(sqlText: string): boolean {
  return ANALYTICS_WRITE.test(sqlText) && !ANALYTICS_HARMLESS.test(sqlText);
}

/**
 * Which writes can change the public catalogue and what is derived from it (plans, their regions,
 * features and prices; providers, regions, sizes and features; plan groups and their selections):
 * the cached catalogue answers and the visitor pricing answers (db/catalogueCache.ts). Any write,
 * new rows included: a new plan or region is news to the catalogue.
 */
const CATALOGUE_TABLES = '(providers|regions|sizes|features|plans|plan_regions|plan_features|plan_groups|plan_group_plans)';
const CATALOGUE_WRITE = new RegExp(`^\\s*(?:update|delete\\s+from|insert\\s+into)\\s+"?${CATALOGUE_TABLES}"?[\\s(]|^\\s*truncate\\b[^;]*?[\\s,"]${CATALOGUE_TABLES}"?(?:[\\s,;]|$)`, 'i');

export function isCatalogueWrite(sqlText: string): boolean {
  return CATALOGUE_WRITE.test(sqlText);
}

/**
 * Which writes can change how many servers a company lists (the server list's cached totals,
 * services/deploymentReads.ts): every write to servers (new, deleted, renamed, moved, a status),
 * deleting a company or project, which deletes their servers with them, and every truncate (one
 * cascading from users or the catalogue empties servers too).
 */
const SERVER_WRITE = /^\s*(?:(?:update|delete\s+from|insert\s+into)\s+"?deployments"?[\s(]|delete\s+from\s+"?(?:companies|projects)"?[\s(]|truncate\b)/i;
export function isServerWrite(sqlText: string): boolean {
  return SERVER_WRITE.test(sqlText);
}

/**
 * A counter that moves whenever a watched write may have changed the database: before the
 * statement runs, and again once its transaction (or, on PostgreSQL, the statement itself) is over.
 * A value read from the database may be kept only if the counter did not move while it was being
 * read, and only until the counter moves again. See `VersionedCache`.
 */
export class ChangeFeed {
  #version = 0;
  #watchedWrites = 0;

  /** `watches` says which statements move this feed (the session writes by default). */
  constructor(readonly watches: (sqlText: string) => boolean = isWatchedWrite) {}

  get version(): number {
    return this.#version;
  }

  /** For drizzle's `logger`: called with each statement just before it is sent. */
  readonly logger: Logger = {
    logQuery: (query: string) => {
      if (this.watches(query)) this.wrote();
    },
  };

  /** A watched write is about to run (or has just run). */
  wrote(): void {
    this.#version++;
    this.#watchedWrites++;
  }

  /** Wraps a transaction: once it is over (committed or not), readers start again from scratch. */
  async around<T>(run: () => Promise<T>): Promise<T> {
    const before = this.#watchedWrites;
    try {
      return await run();
    } finally {
      if (this.#watchedWrites !== before) this.#version++;
    }
  }
}

interface Entry<V> {
  value: V;
  version: number;
  storedAt: number;
}

/**
 * Values read from the database, kept while no watched write happened since and for at most
 * `ttlMs` (the bound for changes made by another process on the same PostgreSQL). At most
 * `maxEntries`; the oldest go first.
 */
export class VersionedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The kept value, or the loader's (kept when nothing changed while it ran). Null is never kept. */
  async load(key: string, loader: () => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.version === this.feed.version && now - entry.storedAt < this.ttlMs) return entry.value;
    if (entry) this.#entries.delete(key);
    const version = this.feed.version;
    const value = await loader();
    if (value !== null && this.feed.version === version) {
      if (this.#entries.size >= this.maxEntries) this.#prune(now);
      this.#entries.set(key, { value, version, storedAt: now });
    }
    return value;
  }

  /** Drops one key at once, whatever the counter says. */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  #prune(now: number) {
    for (const [key, entry] of this.#entries) {
      if (entry.version !== this.feed.version || now - entry.storedAt >= this.ttlMs) this.#entries.delete(key);
    }
    // Still full of live entries: the oldest make room.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
