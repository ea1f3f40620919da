import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '../../src/domain/constants';
import { AppError } from '../errors';
import type { Upload } from '../services/files';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The body of a form that may carry one file: JSON, or multipart/form-data with text fields
     * and at most one file in `fileField`. Files past the upload limit come back truncated.
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
  for await (const part of this.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== fileField || file) {
        part.file.resume();
        throw AppError.validation({ [part.fieldname]: ['validation.invalid'] });
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      file = { data: Buffer.concat(chunks), truncated: part.file.truncated };
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}

/** Multipart forms with one small image; limits keep a request from holding much memory. */
export const formsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(multipart, {
    // Over the limit the file is cut off (not an error), so the service can answer 'file too big'.
    throwFileSizeLimit: false,
    limits: { fileSize: LIMITS.uploadMaxBytes, files: 1, fields: 20, fieldSize: 4096, parts: 21 },
  });
  app.decorateRequest('readForm', readForm);
});
