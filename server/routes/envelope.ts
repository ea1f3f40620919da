import type { Envelope } from '../../src/domain/errors';

/** Success replies share one shape: `{ message, payload }`. */
export function ok<T>(payload: T, message = 'OK'): Envelope<T> {
  return { message, payload };
}
