import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { limitEvents } from '../db/schema';

/** What a limit counts, and per what: the scopes of `limit_events`. */
export type LimitScope = 'invitation:company' | 'deletionCode:company' | 'deletionFailure:company' | 'deletionFailure:user';

const since = (windowMs: number) => sql`now() - make_interval(secs => ${windowMs / 1000})`;

/**
 * How many times the action happened for `key` within the window. Callers that must not let
 * parallel requests slip past a limit count and record inside one transaction that holds a row
 * lock on what the limit is about (the company, the user).
 */
export async function countRecent(tx: Db, scope: LimitScope, key: string, windowMs: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(limitEvents)
    .where(and(eq(limitEvents.scope, scope), eq(limitEvents.key, key), gt(limitEvents.createdAt, since(windowMs))));
  return row?.n ?? 0;
}

/** Counts one more; events older than `keepMs` for the same scope and key are dropped meanwhile. */
export async function recordEvent(tx: Db, scope: LimitScope, key: string, keepMs: number): Promise<void> {
  await tx.delete(limitEvents).where(and(eq(limitEvents.scope, scope), eq(limitEvents.key, key), lt(limitEvents.createdAt, since(keepMs))));
  await tx.insert(limitEvents).values({ scope, key });
}
