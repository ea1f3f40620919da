import type { Db } from './client';

/**
 * The public catalogue (plans, configurables, feature types, and their serialised answers) is
 * read on every visit to pricing and the wizard but changes rarely, so it is kept in memory per
 * database. Catalogue writes (seeding, admin edits) call `invalidatePlanCache()`; the TTL bounds
 * how long another process's write can go unseen when several API processes share one PostgreSQL.
 */
const CACHE_TTL_MS = 30_000;
const catalogueCache = new WeakMap<Db, Map<string, { at: number; value: Promise<unknown> }>>();

export function invalidatePlanCache(db: Db): void {
  catalogueCache.delete(db);
}

/** `load()`'s result kept under `key` until the catalogue changes; a failed load is not kept. */
export function cachedCatalogue<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  let entries = catalogueCache.get(db);
  if (!entries) catalogueCache.set(db, (entries = new Map()));
  const hit = entries.get(key);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.value as Promise<T>;
  const value = load();
  const cache = entries;
  cache.set(key, { at: Date.now(), value });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}
