import { z } from 'zod';
import { errorEnvelopeSchema as errorEnvelope, type Envelope } from '../../src/domain/errors';

const errorEnvelopeSchema = errorEnvelope.describe('Error: { message, code, payload: { errors?, errorId? } }, see the error table');

/** Success replies share one shape: `{ message, payload }`. */
export function ok<T>(payload: T, message = 'OK'): Envelope<T> {
  return { message, payload };
}

/** The success envelope around a payload schema. */
export const envelope = <T extends z.ZodType>(payload: T) => z.object({ message: z.string(), payload }).describe('Success: { message, payload }');

/**
 * A route's `response` schemas: the success envelope under its status (200 unless told), and the
 * error envelope for every 4xx and 5xx. `extra` adds statuses a route also answers (202, 303).
 */
export function replies<T extends z.ZodType, S extends number = 200>(payload: T, status?: S) {
  return { [status ?? 200]: envelope(payload), '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } as { [K in S]: ReturnType<typeof envelope<T>> } & {
    '4xx': typeof errorEnvelopeSchema;
    '5xx': typeof errorEnvelopeSchema;
  };
}

/** Replies of a route that answers no payload (`payload: null`). */
export const noPayload = z.null();

/** Error answers only, for routes whose success is a download, a file or a redirect. */
export const errorReplies = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } as const;
