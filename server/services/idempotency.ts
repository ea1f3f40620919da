import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_REPLAY_HOURS } from '../../src/domain/idempotency';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from '../errors';

/** A claim still in flight after this long belongs to a request that died: a retry may take it over. */
const ABANDONED_AFTER_SECONDS = 5 * 60;

/** The answer to send: the work's, or the stored one of an earlier request with the key. */
export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export interface IdempotentRequest {
  userId: string;
  /** The Idempotency-Key header as received (undefined when absent). */
  key: string | string[] | undefined;
  /** 'POST /companies': a key used for one call cannot be replayed on another. */
  request: string;
  /** What makes two requests the same: the parsed body and query. */
  payload: unknown;
  /** Refuse requests without a key (400), as the ordering calls do. */
  required?: boolean;
}

/** JSON with object keys sorted at every level, so equal payloads hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const hashPayload = (payload: unknown) => createHash('sha256').update(canonicalJson(payload)).digest('hex');

/**
 * Idempotency keys for POSTs that create something (Stripe-style). A request with a key first
 * claims it (a committed 'in_flight' row), then runs its work in a transaction that also stores
 * the answer, so the thing created and the stored answer commit together. A retry with the same
 * key and payload gets the stored answer; with another payload 422; while the first still runs
 * 409. Keys are per user and answers are replayed for IDEMPOTENCY_REPLAY_HOURS. Failed work is
 * not stored: the claim is released, so the request can be retried.
 */
export function createIdempotency(db: Db) {
  /** Takes the key for this request, or says what answer the request gets instead. */
  async function claim(userId: string, key: string, request: string, requestHash: string): Promise<{ id: string } | { replay: IdempotentAnswer<unknown> }> {
    // Keys older than the replay window are forgotten, so an old key starts afresh.
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_REPLAY_HOURS})`)));
    const [claimed] = await db.insert(idempotencyKeys).values({ userId, key, request, requestHash }).onConflictDoNothing().returning({ id: idempotencyKeys.id });
    if (claimed) return claimed;
    const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!row) return claim(userId, key, request, requestHash); // released meanwhile: try again
    if (row.request !== request || row.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (row.status === 'done' && row.responseStatus !== null) return { replay: { status: row.responseStatus, body: row.responseBody, replayed: true } };
    const [takenOver] = await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now()` })
      .where(and(eq(idempotencyKeys.id, row.id), eq(idempotencyKeys.status, 'in_flight'), lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})`)))
      .returning({ id: idempotencyKeys.id });
    if (takenOver) return takenOver;
    throw new AppError('IDEMPOTENCY_KEY_IN_FLIGHT');
  }

  return {
    /**
     * Runs `work` once per key: inside a transaction it is given, whose commit also stores the
     * answer. Without a key (and not `required`) the work simply runs in a transaction.
     */
    async run<T>(req: IdempotentRequest, work: (tx: Db) => Promise<{ status: number; body: T }>): Promise<IdempotentAnswer<T>> {
      const key = typeof req.key === 'string' ? req.key : undefined;
      if (req.key !== undefined && (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key))) throw new AppError('IDEMPOTENCY_KEY_INVALID');
      if (key === undefined) {
        if (req.required) throw new AppError('IDEMPOTENCY_KEY_INVALID');
        return { ...(await db.transaction(work)), replayed: false };
      }
      const claimed = await claim(req.userId, key, req.request, hashPayload(req.payload));
      // A replayed body is the stored JSON of an earlier answer of this same call, so of type T.
      if ('replay' in claimed) return claimed.replay as IdempotentAnswer<T>;
      try {
        const answer = await db.transaction(async (tx) => {
          const result = await work(tx);
          await tx
            .update(idempotencyKeys)
            .set({ status: 'done', responseStatus: result.status, responseBody: JSON.parse(JSON.stringify(result.body)) as unknown })
            .where(eq(idempotencyKeys.id, claimed.id));
          return result;
        });
        return { ...answer, replayed: false };
      } catch (err) {
        await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claimed.id), eq(idempotencyKeys.status, 'in_flight')));
        throw err;
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
