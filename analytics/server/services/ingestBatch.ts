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
  /** Requests per statement at most: bounds how long one statement holds the database. */
  maxRequests: number;
}

/**
 * Embedded PGlite has one connection (in its own thread): a batch holds it for the whole statement,
 * so its batches stay moderate and other requests' reads wait behind at most one of them.
 * PostgreSQL works in its own process, with a pool: bigger batches, fewer commits.
 */
export const BATCH_OPTIONS: Record<'pglite' | 'postgres', BatchOptions> = {
  pglite: { maxRequests: 100 },
  postgres: { maxRequests: 500 },
};

/**
 * One batch is written at a time; what arrives meanwhile forms the next one, so batches grow with
 * the load. An idle writer waits for no timer, only for the end of the event loop's turn (every
 * request already read joins): a fixed window (2 ms) cost a closed loop of ten SDK callers a third
 * of its rate, and under load the batch being written is the window. Each caller is answered after
 * its batch commits, so "Success" still means stored. When a batch fails, its requests are written
 * one by one, so a request the database refuses fails alone.
 */
export function createBatchWriter(deps: { db: Db; options: BatchOptions }): BatchWriter {
  const { db } = deps;
  const { maxRequests } = deps.options;
  const queue: Pending[] = [];
  let running = false;
  let scheduled = false;

  const alone = async (p: Pending) => {
    try {
      p.resolve((await writeBatch(db, [p.w])).has(0));
    } catch (err) {
      p.reject(err);
    }
  };

  const flush = async () => {
    scheduled = false;
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
      schedule();
    }
  };

  const schedule = () => {
    if (running || scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  return {
    write: (w) =>
      new Promise<boolean>((resolve, reject) => {
        queue.push({ w, resolve, reject });
        schedule();
      }),
  };
}
