import { createHash, randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_REPLAY_HOURS } from '../../src/domain/idempotency';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from '../errors';

/**
 * The work on a key runs holding a transaction-scoped advisory lock on it. Locks die with their
 * connection, so a claim whose lock is free belongs to a request that died (a crash, a kill): a
 * retry takes it over at once instead of waiting for a timeout.
 */
const keyLock = (userId: string, key: string) => sql`hashtextextended(${`${userId}:${key}`}, 0)`;

async function tryLock(tx: Db, userId: string, key: string): Promise<boolean> {
  const result = (await tx.execute(sql`select pg_try_advisory_xact_lock(${keyLock(userId, key)}) as free`)) as unknown as { rows: { free: boolean }[] };
  return result.rows[0]?.free === true;
}

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
  /**
   * Runs before the work of a request that claimed its key first (not a replay, nor the retry that
   * takes over a died request's claim), outside any transaction: a limit counted here counts each
   * key once. Throwing refuses the request and releases the key.
   */
  admit?: () => Promise<void>;
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
 * 409; after the first died (its lock is gone), the retry takes the claim over and does the work. Keys are per user and answers are replayed for IDEMPOTENCY_REPLAY_HOURS. Failed work is
 * not stored: the claim is released, so the request can be retried.
 */
export function createIdempotency({ db }: { db: Db }) {
  /** Takes the key for this request, or says what answer the request gets instead. */
  async function claim(userId: string, key: string, request: string, requestHash: string): Promise<{ id: string; owner: string; first: boolean } | { replay: IdempotentAnswer<unknown> }> {
    // Keys older than the replay window are forgotten, so an old key starts afresh.
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_REPLAY_HOURS})`)));
    const owner = randomUUID();
    const [claimed] = await db.insert(idempotencyKeys).values({ userId, key, request, requestHash, owner }).onConflictDoNothing().returning({ id: idempotencyKeys.id, owner: idempotencyKeys.owner });
    if (claimed) return { ...claimed, first: true };
    const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!row) return claim(userId, key, request, requestHash); // released meanwhile: try again
    if (row.request !== request || row.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (row.status === 'done' && row.responseStatus !== null) return { replay: { status: row.responseStatus, body: row.responseBody, replayed: true } };
    // In flight. Nobody holding the key's lock means its request died: take the claim over. (A
    // claimer that has not begun its work yet loses the claim too; run() fences it out.)
    const takenOver = await db.transaction(async (tx) => {
      if (!(await tryLock(tx, userId, key))) return null;
      const [taken] = await tx
        .update(idempotencyKeys)
        .set({ owner, createdAt: sql`now()` })
        .where(and(eq(idempotencyKeys.id, row.id), eq(idempotencyKeys.status, 'in_flight'), eq(idempotencyKeys.owner, row.owner)))
        .returning({ id: idempotencyKeys.id, owner: idempotencyKeys.owner });
      return taken ?? null;
    });
    if (takenOver) return { ...takenOver, first: false };
    // Finished meanwhile, or someone else took it over: ask again.
    const [now] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, row.id));
    if (now?.status === 'done' && now.responseStatus !== null) return { replay: { status: now.responseStatus, body: now.responseBody, replayed: true } };
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
        await req.admit?.();
        return { ...(await db.transaction(work)), replayed: false };
      }
      const claimed = await claim(req.userId, key, req.request, hashPayload(req.payload));
      // A replayed body is the stored JSON of an earlier answer of this same call, so of type T.
      if ('replay' in claimed) return claimed.replay as IdempotentAnswer<T>;
      try {
        if (claimed.first) await req.admit?.();
        const answer = await db.transaction(async (tx) => {
          // Held until commit: while it is, nobody takes the claim over. Then check the claim is
          // still ours (a retry may have taken it over before this began).
          await tx.execute(sql`select pg_advisory_xact_lock(${keyLock(req.userId, key)})`);
          const [mine] = await tx
            .select({ id: idempotencyKeys.id })
            .from(idempotencyKeys)
            .where(and(eq(idempotencyKeys.id, claimed.id), eq(idempotencyKeys.owner, claimed.owner), eq(idempotencyKeys.status, 'in_flight')));
          if (!mine) throw new AppError('IDEMPOTENCY_KEY_IN_FLIGHT');
          const result = await work(tx);
          await tx
            .update(idempotencyKeys)
            .set({ status: 'done', responseStatus: result.status, responseBody: JSON.parse(JSON.stringify(result.body)) as unknown })
            .where(eq(idempotencyKeys.id, claimed.id));
          return result;
        });
        return { ...answer, replayed: false };
      } catch (err) {
        await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claimed.id), eq(idempotencyKeys.owner, claimed.owner), eq(idempotencyKeys.status, 'in_flight')));
        throw err;
      }
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
