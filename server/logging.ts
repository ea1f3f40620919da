import type { FastifyServerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';
import { REDACTED } from '../src/domain/audit';

/**
 * What the log must never hold: passwords and their hashes, mailed tokens and codes, cookies, SQL
 * parameters. Censoring catches known keys at the top of a log object and one level down (and the
 * credential headers of a `headers` object there); the serializers below clean the two places such
 * values hide in text (URLs and database error messages).
 */
const SECRET_KEYS = ['password', 'oldPassword', 'newPassword', 'confirmation', 'passwordHash', 'token', 'authCode', 'idToken', 'secret', 'cookie', 'authorization', 'apiKey'];
// `code` only at the top: nested, it is an error's code (ECONNREFUSED, 23505), worth keeping.
const TOP_SECRET_KEYS = [...SECRET_KEYS, 'code'];
/** Headers that carry a credential (`countly-token`: the analytics dashboard's token, Countly's name for it). */
const SECRET_HEADERS = ['cookie', 'authorization', 'set-cookie', 'countly-token'];
/** Keys whose serializer below (or Fastify's, for `res`) picks the fields it logs. */
const SERIALIZED = new Set(['req', 'res', 'err']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object with those keys and its credential headers censored: a copy when one is found, never a change to the caller's object. */
function censorObject(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) if (Object.hasOwn(object, key)) (copy ??= { ...object })[key] = REDACTED;
  const headers = object.headers;
  if (isObject(headers)) {
    let clean: Record<string, unknown> | undefined;
    for (const name of SECRET_HEADERS) if (Object.hasOwn(headers, name)) (clean ??= { ...headers })[name] = REDACTED;
    if (clean) (copy ??= { ...object }).headers = clean;
  }
  return copy ?? object;
}

/**
 * A log line's object with credentials censored: the keys above at the top and in each object one
 * level down (plugins log their options at debug level, headers included: @fastify/multipart's
 * busboyOptions). pino's own `redact` did this with wildcard paths, but ran them over every value
 * of every line and over each request's child-logger bindings, parsing the paths each time: a
 * sixth of the server's thread at the default `info` level, a twentieth at `warn`. Child bindings
 * are not censored (pino formats them as given): the only ones are Fastify's request ids.
 */
export function censorLog(log: Record<string, unknown>): Record<string, unknown> {
  let out = censorObject(log, TOP_SECRET_KEYS);
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (SERIALIZED.has(key) || !isObject(value)) continue;
    const clean = censorObject(value, SECRET_KEYS);
    if (clean !== value) {
      if (out === log) out = { ...log };
      out[key] = clean;
    }
  }
  return out;
}

/** Query parameters that carry a credential; their values never reach a log line. */
const SECRET_QUERY = /^(token|code|authcode|idtoken|password|secret|key|signature|sig|auth_token|api_key)$/i;

/** `/api/v1/auth/unlock?token=abc` → `/api/v1/auth/unlock?token=[redacted]`. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const [name = ''] = pair.split('=', 1);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as it came; it cannot be one of ours.
      }
      return SECRET_QUERY.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string | number;
  cause?: LoggedError;
}

// A database error (node-postgres or PGlite): an SQLSTATE code, and a severity beside it.
const isDatabaseError = (err: Error & { code?: unknown }) => 'severity' in err || (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code));
/** PostgreSQL quotes the offending value in its messages (`invalid input syntax ...: "<value>"`). */
const maskQuoted = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '"[redacted]"');

/**
 * Errors without what they may carry from the query: drizzle's "Failed query" message ends with the
 * parameters (a password hash, a token hash, an email), and the database's own message quotes the
 * value it refused. Only the SQL text, the error code, the names of the table, column and
 * constraint, and the stack are kept; enumerable extras (params, detail, where) are dropped.
 */
export function serializeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: '[not an Error]', stack: '' };
  const fields = err as Error & { code?: unknown; table?: unknown; column?: unknown; constraint?: unknown };
  const database = isDatabaseError(fields);
  const clean = (text: string) => {
    const withoutParams = text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');
    return database ? maskQuoted(withoutParams) : withoutParams;
  };
  const message = clean(err.message);
  // The stack starts with the message; replace it whole first, in case the parameters span lines.
  const logged: LoggedError = { type: err.name, message, stack: clean((err.stack ?? '').replace(err.message, message)) };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') logged.code = fields.code;
  if (database) {
    for (const key of ['table', 'column', 'constraint'] as const) if (typeof fields[key] === 'string') logged[key] = fields[key];
  }
  if (err.cause !== undefined && depth < 3) logged.cause = serializeError(err.cause, depth + 1);
  return logged;
}

interface RequestLike {
  method: string;
  url: string;
  ip?: string;
  host?: string;
  id?: string;
  socket?: { remotePort?: number };
}

export type LoggerOption = boolean | { level: string; stream?: NodeJS.WritableStream };

/** What every logger of the product writes through (the server's and the worker process's): censoring and our serializers. */
export const LOG_HYGIENE = {
  formatters: { log: censorLog },
  serializers: {
    req: (request: RequestLike) => ({ method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }),
    err: serializeError,
  },
} satisfies LoggerOptions;

/** Fastify's logger options, with LOG_HYGIENE, for the configured level. */
export function loggerOptions(level: string, override?: LoggerOption): FastifyServerOptions['logger'] {
  if (override === false) return false;
  const base = override && override !== true ? override : { level };
  return { ...base, ...LOG_HYGIENE };
}
