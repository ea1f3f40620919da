import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '../../src/domain/constants';
import { AppError } from '../errors';

/**
 * Text that PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone surrogate half).
 * Such text is never a legitimate name, address or password, and would otherwise end as a 500.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isInvalidText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** The path of the first invalid string (value or key) in a parsed body, query or params. */
function findInvalidText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return isInvalidText(value) ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (isInvalidText(key)) return path || '_';
    const found = findInvalidText(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Refuses invalid text with a 400 naming the field, before any handler reads it. */
export function assertValidText(value: unknown): void {
  const field = findInvalidText(value, '');
  if (field !== null) throw AppError.validation({ [field || '_']: ['validation.invalidText'] });
}

// A multipart body carries at most one upload plus a few short fields (see forms.ts).
const MULTIPART_MAX_BYTES = LIMITS.uploadMaxBytes + 128 * 1024;

const declaredLength = (request: FastifyRequest) => {
  const header = request.headers['content-length'];
  return header && /^\d+$/.test(header) ? Number(header) : null;
};

/**
 * Guards every request before a handler sees it: invalid text is refused with 400 (before and
 * after validation); a multipart body that says it is bigger than any accepted upload is refused
 * before it is read; and a reply sent before the body has fully arrived closes the connection
 * instead of reading the rest.
 */
export const requestGuardsPlugin = fp(async (app: FastifyInstance) => {
  // Callback hooks rather than async ones: these run on every request, and an async hook costs a
  // promise and a turn of the microtask queue each time.
  app.addHook('onRequest', (request, _reply, done) => {
    const length = declaredLength(request);
    if (length !== null && length > MULTIPART_MAX_BYTES && request.headers['content-type']?.toLowerCase().startsWith('multipart/')) {
      // Multipart bodies are uploads here, so the answer names the file limit.
      done(new AppError('FILE_TOO_BIG'));
      return;
    }
    done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertValidText(request.params);
      assertValidText(request.query);
      assertValidText(request.body);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  // Again once validated: a query's JSON parameters (a list's `filter`) carry text escaped in
  // JSON, such as `\u0000`, which only their parsed values show.
  app.addHook('preHandler', (request, _reply, done) => {
    try {
      assertValidText(request.query);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // Node would otherwise read (and throw away) the rest of the body to keep the connection.
    // (Injected test requests have no `complete`.)
    if (request.raw.complete === false) reply.header('connection', 'close');
    done(null, payload);
  });
});
