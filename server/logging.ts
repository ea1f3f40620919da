import type { FastifyServerOptions } from 'fastify';

/**
 * What the log must never hold: passwords and their hashes, mailed tokens and codes, cookies, SQL
 * parameters. Redaction catches known keys anywhere near the top of a log object; the serializers
 * below clean the two places such values hide in text (URLs and database error messages).
 */
const SECRET_KEYS = ['password', 'oldPassword', 'newPassword', 'confirmation', 'passwordHash', 'token', 'authCode', 'idToken', 'secret', 'cookie', 'authorization', 'apiKey'];

const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  // The analytics dashboard's token header (Countly's name for it).
  'req.headers["countly-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  // Plugins log their options at debug level, headers included (@fastify/multipart's busboyOptions).
  '*.headers.cookie',
  '*.headers.authorization',
  'err.params',
  'err.cause.params',
  'err.parameters',
  // `code` only at the top: nested, it is an error's code (ECONNREFUSED, 23505), worth keeping.
  'code',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
];

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
