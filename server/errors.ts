import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TFunction } from 'i18next';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { ERRORS, type ErrorCode, type ErrorEnvelope, type FieldErrors } from '../src/domain/errors';
import { isSdkPath, setSdkCors } from './plugins/sdkCors';

/** What an error carries beside its code: field errors (i18n keys) and message parameters. */
export interface AppErrorDetails {
  fieldErrors?: FieldErrors;
  params?: Record<string, string>;
}

/**
 * The one error type services throw: `new AppError(code, details?)`. Its HTTP status and message
 * come from the error table (src/domain/errors.ts); the error handler below answers the envelope.
 */
export class AppError extends Error {
  /** A 400 with field errors (i18n keys), like a refused request body. */
  static validation(fieldErrors: FieldErrors): AppError {
    return new AppError('VALIDATION_FAILED', { fieldErrors });
  }

  readonly statusCode: number;
  readonly messageKey: string;
  readonly fieldErrors?: FieldErrors;
  readonly params: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    details: AppErrorDetails = {},
  ) {
    const { status, message } = ERRORS[code];
    super(message);
    this.name = 'AppError';
    this.statusCode = status;
    this.messageKey = message;
    this.fieldErrors = details.fieldErrors;
    this.params = details.params ?? {};
  }
}

/** Field errors from a zod error: each issue's message key translated, grouped by field path. */
export function zodFieldErrors(error: ZodError, t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    (errors[field] ??= []).push(t(issue.message, { defaultValue: issue.message }));
  }
  return errors;
}

/** Field errors from a route schema's validation issues (paths like `/planConfig/region`). */
function validationFieldErrors(issues: { instancePath: string; message?: string }[], t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.instancePath.split('/').filter(Boolean).join('.') || '_';
    const key = issue.message ?? 'validation.invalid';
    (errors[field] ??= []).push(t(key, { defaultValue: key }));
  }
  return errors;
}

// Fastify's own client errors, mapped to our codes.
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

/**
 * Fastify's refusals before any route runs (`frameworkErrors`): a bad URL encoding, a path part
 * past maxParamLength. Fastify's own answer repeats the whole URL, query secrets included; ours
 * names only the code and an errorId the log also has.
 */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
};

/** Fastify's `frameworkErrors` option: the error envelope without anything from the request. */
export function frameworkErrors(t: TFunction) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // No hook runs for these: an SDK path's refusal needs its CORS header here.
    if (isSdkPath(request.url)) setSdkCors(reply);
    const code = FRAMEWORK_CODES[error.code];
    if (!code) {
      request.log.error({ err: error, errorId: request.id }, 'unhandled framework error');
      return send(reply, 500, { message: t('errors.INTERNAL', { errorId: request.id }), code: 'INTERNAL', payload: { errorId: request.id } });
    }
    // The error's message holds the URL: only its code goes to the log (the request line is redacted there).
    request.log.info({ errorCode: error.code, errorId: request.id }, 'request refused before routing');
    return send(reply, ERRORS[code].status, { message: t(ERRORS[code].message), code, payload: { errorId: request.id } });
  };
}

/** Node's parser errors (`clientError`), by the status Fastify answers them with. */
const CLIENT_ERROR_CODES: Record<string, ErrorCode> = { HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE', ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT' };

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse (headers too large, a broken
 * request line, a timeout) never reaches Fastify, so the envelope is written on the socket itself.
 */
export function clientErrorHandler(t: TFunction) {
  return function (this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
    // A reset connection or one already gone has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const code: ErrorCode = (err.code && CLIENT_ERROR_CODES[err.code]) || 'BAD_REQUEST';
    const errorId = randomUUID();
    this.log.info({ errorCode: err.code, errorId }, 'unparsable request refused');
    const status = ERRORS[code].status;
    const envelope: ErrorEnvelope = { message: t(ERRORS[code].message), code, payload: { errorId } };
    const body = JSON.stringify(envelope);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

/** Other client errors thrown by Fastify or a plugin, by status: the answer's status is always the code's own. */
const ERRORS_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  406: 'UNSUPPORTED_MEDIA_TYPE',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

function send(reply: FastifyReply, status: number, body: ErrorEnvelope) {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** The one error path of the API: everything thrown ends here as `{ message, code, payload }`. */
export function registerErrorHandling(app: FastifyInstance, t: TFunction) {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      const errors = error.fieldErrors
        ? Object.fromEntries(Object.entries(error.fieldErrors).map(([field, keys]) => [field, keys.map((k) => t(k, { defaultValue: k }))]))
        : undefined;
      const fields = errors ? Object.keys(errors).join(', ') : '';
      const message = t(error.messageKey, { ...error.params, fields, defaultValue: error.messageKey });
      return send(reply, error.statusCode, { message, code: error.code, payload: errors ? { errors } : {} });
    }
    const validationFailed = (errors: FieldErrors) =>
      send(reply, 400, { message: t('errors.VALIDATION_FAILED', { fields: Object.keys(errors).join(', ') }), code: 'VALIDATION_FAILED', payload: { errors } });
    if (error instanceof ZodError) return validationFailed(zodFieldErrors(error, t));
    // A request part refused by its route schema: the same answer as a zod error in a handler.
    if (hasZodFastifySchemaValidationErrors(error)) return validationFailed(validationFieldErrors(error.validation, t));
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return send(reply, 429, { message: error.message, code: 'RATE_LIMITED', payload: {} });
    }
    if (status >= 400 && status < 500) {
      const code: ErrorCode = (error.code && FASTIFY_CODES[error.code]) || ERRORS_BY_STATUS[status] || 'BAD_REQUEST';
      // Only the code is logged: Fastify's and its plugins' messages may quote the request.
      request.log.info({ errorCode: error.code, errorId: request.id }, 'request refused');
      return send(reply, ERRORS[code].status, { message: t(ERRORS[code].message), code, payload: { errorId: request.id } });
    }
    // Unexpected: log everything under the request id, tell the client only the id.
    request.log.error({ err: error, errorId: request.id }, 'unhandled error');
    return send(reply, 500, { message: t('errors.INTERNAL', { errorId: request.id }), code: 'INTERNAL', payload: { errorId: request.id } });
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? request.url;
    return send(reply, 404, { message: t('errors.ROUTE_NOT_FOUND', { method: request.method, url }), code: 'ROUTE_NOT_FOUND', payload: {} });
  });
}
