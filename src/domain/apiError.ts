import type { ErrorCode, FieldErrors } from './errors';

/**
 * A failed API call as the browser's HTTP client (dataProvider/httpClient) raises it. A module of
 * its own, importing types only: the front door's form code recognises it without loading zod
 * and the error table.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | undefined,
    readonly fieldErrors: FieldErrors | null,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
