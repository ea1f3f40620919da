import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '../../src/domain/constants';
import { AppError } from '../errors';
import type { Upload } from '../services/files';
import { assertValidText } from './requestGuards';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The body of a form that may carry one file: JSON, or multipart/form-data with text fields
     * and at most one file in `fileField`. A file past the upload limit is refused (FILE_TOO_BIG) as soon
     * as the limit is reached, without reading the rest of the request.
     */
    readForm(fileField: string): Promise<{ fields: Record<string, unknown>; file: Upload | null }>;
  }
}

async function readForm(this: FastifyRequest, fileField: string) {
  if (!this.isMultipart()) {
    const body = this.body;
    return { fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {}, file: null };
  }
  const fields: Record<string, unknown> = {};
  let file: Upload | null = null;
  try {
    for await (const part of this.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField || file) {
          part.file.resume();
          throw AppError.validation({ [part.fieldname]: ['validation.invalid'] });
        }
        file = { data: await readFile(part, fileField), truncated: part.file.truncated };
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    throw formError(err);
  }
  assertValidText(fields);
  return { fields, file };
}

// @fastify/multipart's own limit errors: too many parts, files or fields.
const LIMIT_ERRORS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * A body that is not the multipart it says it is (no boundary, a cut-off or malformed part, a
 * `__proto__` field) fails inside busboy with a plain Error: the client's fault, so a 400 (or 413
 * past a limit) instead of the 500 an unknown error answers. Our own refusals pass through.
 */
function formError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const code = err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : '';
  return new AppError(LIMIT_ERRORS.has(code) ? 'PAYLOAD_TOO_LARGE' : 'MULTIPART_INVALID');
}

/**
 * The file's bytes, or FILE_TOO_BIG the moment it passes the limit: waiting for the end of the
 * file would mean reading (and throwing away) everything the client still sends. A body that ends
 * inside the file may have failed the part before it reached us (busboy runs ahead of the
 * handler): such a part never emits again, so its state is read first, and a part closed before
 * its end is MULTIPART_INVALID.
 */
function readFile(part: MultipartFile, field: string): Promise<Buffer> {
  const file = part.file;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const tooBig = () => file.truncated && (reject(new AppError('FILE_TOO_BIG', { fieldErrors: { [field]: ['errors.FILE_TOO_BIG'] } })), true);
    if (tooBig()) return;
    if (file.errored || (file.destroyed && !file.readableEnded)) return reject(new AppError('MULTIPART_INVALID'));
    file.on('data', (chunk: Buffer) => tooBig() || chunks.push(chunk));
    file.once('limit', tooBig);
    file.once('end', () => tooBig() || resolve(Buffer.concat(chunks)));
    file.once('error', reject);
    file.once('close', () => file.readableEnded || reject(new AppError('MULTIPART_INVALID')));
  });
}

/** Multipart forms with one small image; limits keep a request from holding much memory. */
export const formsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(multipart, {
    // Over the limit busboy only cuts the file off; readFile above turns that into FILE_TOO_BIG.
    throwFileSizeLimit: false,
    limits: { fileSize: LIMITS.uploadMaxBytes, files: 1, fields: 20, fieldSize: 4096, parts: 21 },
  });
  app.decorateRequest('readForm', readForm);
});
