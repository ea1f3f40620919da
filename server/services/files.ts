import { eq } from 'drizzle-orm';
import { LIMITS, type UploadImageType } from '../../src/domain/constants';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import { AppError } from '../errors';
import { UUID } from './plans';

/** An uploaded file as the multipart reader hands it over. */
export interface Upload {
  data: Buffer;
  /** True when the upload went past the size limit and was cut off. */
  truncated: boolean;
}

// Magic numbers of the accepted image types: the declared type and the file name are not trusted.
const SIGNATURES: { type: UploadImageType; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

export function sniffImageType(data: Buffer): UploadImageType | null {
  return SIGNATURES.find((s) => s.test(data))?.type ?? null;
}

/** Checks an upload (size, real image type) and refuses it with a field error naming `field`. */
export function checkImage(upload: Upload, field: string): UploadImageType {
  if (upload.truncated || upload.data.length > LIMITS.uploadMaxBytes) throw new AppError('FILE_TOO_BIG', { fieldErrors: { [field]: ['errors.FILE_TOO_BIG'] } });
  const type = upload.data.length ? sniffImageType(upload.data) : null;
  if (!type) throw new AppError('FILE_TYPE', { fieldErrors: { [field]: ['errors.FILE_TYPE'] } });
  return type;
}

export async function storeImage(db: Db, data: Buffer, contentType: UploadImageType): Promise<string> {
  const [row] = await db.insert(files).values({ contentType, data, size: data.length }).returning({ id: files.id });
  if (!row) throw new Error('file insert returned nothing');
  return row.id;
}

export async function deleteFile(db: Db, id: string | null): Promise<void> {
  if (id) await db.delete(files).where(eq(files.id, id));
}

export type FileService = ReturnType<typeof createFileService>;

/** Uploaded files as the files route serves them; ids are unguessable UUIDs (see routes/files.ts). */
export function createFileService(deps: { db: Db }) {
  return {
    read: (input: { id: string }) => (UUID.test(input.id) ? readFile(deps.db, input.id) : Promise.resolve(null)),
  };
}

export async function readFile(db: Db, id: string): Promise<{ contentType: string; data: Buffer } | null> {
  const [row] = await db.select({ contentType: files.contentType, data: files.data }).from(files).where(eq(files.id, id));
  return row ?? null;
}

/** The URL a stored file is served at (see routes/files.ts). */
export const fileUrl = (id: string | null): string | null => (id ? `/api/v1/files/${id}` : null);
