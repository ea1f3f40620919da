import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';
import { AppError } from '../errors';

export interface Limit {
  max: number;
  windowMinutes: number;
}

/**
 * Fixed-window counters in the database, so every API process counts the same attempts (the
 * per-IP limits in memory guard a single process; these guard accounts and codes).
 */
export function createRateCounters({ db }: { db: Db }) {
  const windowStart = (minutes: number) => new Date(Math.floor(Date.now() / (minutes * 60_000)) * minutes * 60_000);

  /** Counts one attempt under `key`; answers 429 once `max` are used in the window (the refused one is counted too). */
  async function hit(key: string, limit: Limit): Promise<void> {
    // Now and then, drop windows older than a day so the table stays small.
    if (Math.random() < 0.002) await prune();
    const start = windowStart(limit.windowMinutes);
    const [row] = await db
      .insert(rateCounters)
      .values({ key, windowStart: start, count: 1 })
      .onConflictDoUpdate({ target: [rateCounters.key, rateCounters.windowStart], set: { count: sql`${rateCounters.count} + 1` } })
      .returning({ count: rateCounters.count });
    if ((row?.count ?? 0) > limit.max) {
      const after = Math.max(1, Math.ceil((start.getTime() + limit.windowMinutes * 60_000 - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', { params: { after: `${after} seconds` } });
    }
  }

  /** Answers 429 when `key` has already used its `max` in this window, without counting. */
  async function check(key: string, limit: Limit): Promise<void> {
    const start = windowStart(limit.windowMinutes);
    const [row] = await db
      .select({ count: rateCounters.count })
      .from(rateCounters)
      .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, start)));
    if ((row?.count ?? 0) >= limit.max) {
      const after = Math.max(1, Math.ceil((start.getTime() + limit.windowMinutes * 60_000 - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', { params: { after: `${after} seconds` } });
    }
  }

  /** Forgets every window of `key` (a proof of the mailbox gives the account its budget back). */
  async function reset(tx: Db, key: string): Promise<void> {
    await tx.delete(rateCounters).where(eq(rateCounters.key, key));
  }

  async function prune(): Promise<void> {
    await db.delete(rateCounters).where(lt(rateCounters.windowStart, new Date(Date.now() - 86_400_000)));
  }

  return { hit, check, reset, prune };
}

export type RateCounters = ReturnType<typeof createRateCounters>;
