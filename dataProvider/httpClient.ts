import { ApiError } from '../src/domain/apiError';
import type { ErrorCode, FieldErrors } from '../src/domain/errors';
import { reportError } from './errorReporter';

// Defined in src/domain so src/ui can recognise it without importing the HTTP client.
export { ApiError };

export const API_BASE = '/api/v1';

/** The part of i18next the error rule needs. */
export interface Translator {
  exists(key: string): boolean;
  t(key: string): string;
}

interface EnvelopeBody {
  message?: unknown;
  code?: unknown;
  payload?: { errors?: unknown } | null;
}

/** SPEC §8: a status below 200, or 400 and above, is an error. */
export function isErrorStatus(status: number): boolean {
  return status < 200 || status >= 400;
}

function fieldErrorsOf(body: unknown): FieldErrors | null {
  const errors = (body as EnvelopeBody | null)?.payload?.errors;
  if (!errors || typeof errors !== 'object') return null;
  const entries = Object.entries(errors as Record<string, unknown>).filter(
    (e): e is [string, string[]] => Array.isArray(e[1]) && typeof e[1][0] === 'string',
  );
  return entries.length ? Object.fromEntries(entries) : null;
}

/**
 * SPEC §8's general rule: with payload.errors, the first message of each field joined with commas,
 * ending with a period; otherwise the message, translated when it is a key, else raw, else '<empty>'.
 */
export function errorMessage(body: unknown, i18n: Translator): string {
  const fields = fieldErrorsOf(body);
  if (fields) {
    const firsts = Object.values(fields).map((messages) => (messages[0] ?? '').trim().replace(/\.+$/, ''));
    return `${firsts.join(', ')}.`;
  }
  const message = (body as EnvelopeBody | null)?.message;
  if (typeof message !== 'string' || message === '') return i18n.t('errors.empty');
  return i18n.exists(message) ? i18n.t(message) : message;
}


export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  message: string;
  payload: T;
}

let translator: Translator = { exists: () => false, t: (key) => (key === 'errors.empty' ? '<empty>' : key) };
/** The app sets its i18next instance once at start; the client stays free of React. */
export function setTranslator(next: Translator) {
  translator = next;
}

/** A reply body: JSON when it parses, else its text as the message (SPEC §8 shows it raw). */
async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { message: text };
  }
}

/** The error of a failed reply, by SPEC §8's rule; 5xx answers are reported too. */
function toApiError(status: number, body: unknown): ApiError {
  const envelope = body as EnvelopeBody | null;
  const error = new ApiError(errorMessage(body, translator), status, typeof envelope?.code === 'string' ? (envelope.code as ErrorCode) : undefined, fieldErrorsOf(body), body);
  if (status >= 500) reportError(error);
  return error;
}

/** The only way the browser talks to the API: JSON in, envelope out, errors by SPEC §8. */
export async function apiFetch<T>(path: string, init: RequestInit = {}, fetchImpl: typeof fetch = fetch): Promise<ApiResponse<T>> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has('content-type')) {
    headers.set('content-type', 'application/json');
  }
  const res = await fetchImpl(`${API_BASE}${path}`, { ...init, headers, credentials: 'include' });
  const body = await readBody(res);
  if (isErrorStatus(res.status)) throw toApiError(res.status, body);
  const envelope = (body ?? {}) as { message?: string; payload?: T };
  return { status: res.status, headers: res.headers, message: envelope.message ?? '', payload: envelope.payload as T };
}

/** A file download (GET): the bytes as a Blob, or the same errors as apiFetch. */
export async function apiDownload(path: string, fetchImpl: typeof fetch = fetch): Promise<Blob> {
  const res = await fetchImpl(`${API_BASE}${path}`, { headers: { accept: 'application/json' }, credentials: 'include' });
  if (isErrorStatus(res.status)) throw toApiError(res.status, await readBody(res));
  return res.blob();
}
