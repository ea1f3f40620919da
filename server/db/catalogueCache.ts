import type { ChangeFeed } from './changes';
import type { Db } from './types';

/**
 * The public catalogue (plans, configurables, feature types, their serialised answers and the
 * visitor pricing answers) is read on every visit to pricing and the wizard but changes rarely, so
 * it is kept in memory per database. Every write to a catalogue table moves the database's
 * catalogue feed (db/changes.ts: seen in the SQL drizzle sends, so no writer needs to remember a
 * call), and a kept value is used only while the feed has not moved since it started loading. The
 * TTL bounds how long another process's write can go unseen when several API processes share one
 * PostgreSQL.
 */
export const CATALOGUE_CACHE_TTL_MS = 30_000;

interface Entry {
  at: number;
  version: number;
  value: Promise<unknown>;
}

const catalogueCache = new WeakMap<Db, Map<string, Entry>>();
const feeds = new WeakMap<Db, ChangeFeed>();

/** openDatabase ties the database to its catalogue feed. */
export function trackCatalogue<D extends Db>(db: D, feed: ChangeFeed): D {
  feeds.set(db, feed);
  return db;
}

/** Drops everything kept for this database now (tests, and writes the feed cannot see). */
export function invalidatePlanCache(db: Db): void {
  catalogueCache.delete(db);
}

/** `load()`'s result kept under `key` until the catalogue changes; a failed load is not kept. */
export function cachedCatalogue<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  let entries = catalogueCache.get(db);
  if (!entries) catalogueCache.set(db, (entries = new Map()));
  // Without a feed (a transaction's handle), only the TTL applies, as for another process's write.
  const version = feeds.get(db)?.version ?? 0;
  const hit = entries.get(key);
  if (hit && hit.version === version && Date.now() - hit.at < CATALOGUE_CACHE_TTL_MS) return hit.value as Promise<T>;
  // Started at `version`: a write while it loads moves the feed, and the next read loads again.
  const value = load();
  const cache = entries;
  cache.set(key, { at: Date.now(), version, value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}
