import type { FastifyServerOptions } from 'fastify';

/**
 * What the log must never hold: passwords and their hashes, mailed tokens and codes, cookies, SQL
 * parameters. Redaction catches known keys anywhere near the top of a log object; the serializers
 * below clean the two places such values hide in text (URLs and database error messages).
 */
const SECRET_KEYS = ['password', 'oldPassword', 'passwordHash', 'token', 'authCode', 'idToken', 'secret', 'cookie', 'authorization'];

const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'err.params',
  'err.cause.params',
  'err.parameters',
  // `code` only at the top: nested, it is an error's code (ECONNREFUSED, 23505), worth keeping.
  'code',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
];

/** Query parameters that carry a credential; their values never reach a log line. */
const SECRET_QUERY = /^(token|code|authcode|idtoken|password|secret|key|signature|sig)$/i;

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

/**
 * Errors without what they may carry from the query: drizzle's "Failed query" message ends with the
 * parameters (a password hash, a token hash, an email), and the driver's error may repeat the
 * values in `detail`. Only the SQL text, the database error code and the stack are kept.
 */
export function serializeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: '[not an Error]', stack: '' };
  const withFields = err as Error & { code?: unknown };
  const message = err.message.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
  const stack = (err.stack ?? '').replace(err.message, message).replace(/\nparams: [\s\S]*?(?=\n\s+at )/, '\nparams: [redacted]');
  const logged: LoggedError = { type: err.name, message, stack };
  if (typeof withFields.code === 'string' || typeof withFields.code === 'number') logged.code = withFields.code;
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

/** Fastify's logger options with redaction and our serializers, for the configured level. */
export function loggerOptions(level: string, override?: LoggerOption): FastifyServerOptions['logger'] {
  if (override === false) return false;
  const base = override && override !== true ? override : { level };
  return {
    ...base,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: RequestLike) => ({ method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }),
      err: serializeError,
    },
  };
}
