import type { Db } from '../../../server/db/client';
import { writeBatch, type Write } from './ingestWrite';
import { recordIngestBatch } from '../../../server/metrics';

/** Collects the accepted requests of every caller into batches written by one statement each (group commit). */
export interface BatchWriter {
  /** Resolves once the request's batch committed: whether the request was new (not a retry). */
  write(w: Write): Promise<boolean>;
}

interface Pending {
  w: Write;
  resolve: (claimed: boolean) => void;
  reject: (err: unknown) => void;
}

export interface BatchOptions {
  /** How long the first request of an idle writer waits for others (ms). */
  windowMs: number;
  /** Requests per statement at most: bounds how long one statement holds the database. */
  maxRequests: number;
}

/**
 * Embedded PGlite has one connection (in its own thread): a batch holds it for the whole statement,
 * so its batches stay moderate and other requests' reads wait behind at most one of them.
 * PostgreSQL works in its own process, with a pool: bigger batches, fewer commits.
 */
export const BATCH_OPTIONS: Record<'pglite' | 'postgres', BatchOptions> = {
  pglite: { windowMs: 2, maxRequests: 100 },
  postgres: { windowMs: 2, maxRequests: 500 },
};

/**
 * One batch is written at a time; what arrives meanwhile forms the next one, so batches grow with
 * the load and an idle writer adds only `windowMs`. Each caller is answered after its batch
 * commits, so "Success" still means stored. When a batch fails, its requests are written one by
 * one, so a request the database refuses fails alone.
 */
export function createBatchWriter(deps: { db: Db; options: BatchOptions }): BatchWriter {
  const { db } = deps;
  const { windowMs, maxRequests } = deps.options;
  const queue: Pending[] = [];
  let running = false;
  let timer: NodeJS.Timeout | null = null;

  const alone = async (p: Pending) => {
    try {
      p.resolve((await writeBatch(db, [p.w])).has(0));
    } catch (err) {
      p.reject(err);
    }
  };

  const flush = async () => {
    timer = null;
    if (running || queue.length === 0) return;
    running = true;
    const batch = queue.splice(0, maxRequests);
    recordIngestBatch(batch.length);
    try {
      const claimed = await writeBatch(db, batch.map((p) => p.w));
      batch.forEach((p, i) => p.resolve(claimed.has(i)));
    } catch {
      for (const p of batch) await alone(p);
    } finally {
      running = false;
      if (queue.length > 0) schedule(true);
    }
  };

  // A full queue, or one that filled while a batch ran, goes at once; a first request waits the window.
  const schedule = (now: boolean) => {
    if (running || (timer && !now)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void flush(), now ? 0 : windowMs);
  };

  return {
    write: (w) =>
      new Promise<boolean>((resolve, reject) => {
        queue.push({ w, resolve, reject });
        schedule(queue.length >= maxRequests);
      }),
  };
}
