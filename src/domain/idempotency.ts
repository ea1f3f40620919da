/**
 * Idempotency keys (wire contract): a client that may retry a creating POST sends a key of its
 * choosing in this header; a retry with the same key and body gets the first answer again, marked
 * with the replayed header. POST /companies takes a key optionally; ordering calls require one.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 visible ASCII characters (a UUID is a good choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long an answer is kept for replay. */
export const IDEMPOTENCY_REPLAY_HOURS = 24;
