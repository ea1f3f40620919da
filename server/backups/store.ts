import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';

/**
 * Where backup archives are kept: a folder under `DATA_DIR` by default, or an S3-compatible bucket
 * that several API and worker processes share (`BACKUP_STORE_URL`). An archive appears whole or
 * not at all: the folder writes a temporary name and renames it, S3 shows an object only once its
 * upload completed.
 */
export interface BackupStore {
  readonly kind: 'folder' | 's3';
  /** Stores the local file under `key`, replacing what was there. */
  put(key: string, file: string): Promise<void>;
  /** The archive's bytes, or null when there is no such archive. */
  get(key: string): Promise<Readable | null>;
  /** The archive's size in bytes, or null when there is no such archive. */
  size(key: string): Promise<number | null>;
  /** Removes the archive; nothing to remove is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;
function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid backup key: ${key}`);
  return key;
}

export function folderStore(root: string): BackupStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, checkKey(key));
    if (!path.startsWith(base + sep)) throw new Error(`invalid backup key: ${key}`);
    return path;
  };
  return {
    kind: 'folder',
    async put(key, file) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const partial = `${target}.partial`;
      await pipeline(createReadStream(file), createWriteStream(partial, { flush: true }));
      await rename(partial, target);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        return null;
      }
      return createReadStream(path);
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
      await rm(`${pathOf(key)}.partial`, { force: true });
    },
  };
}

export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** The AWS SDK, loaded on first use: a start with the folder store never pays for it. */
async function loadS3(location: S3Location) {
  const [sdk, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  const client = new sdk.S3Client({
    region: location.region,
    endpoint: location.endpoint,
    // Path-style addressing: S3-compatible stores (MinIO, Ceph, Garage) at their own address need it.
    forcePathStyle: Boolean(location.endpoint),
    credentials: location.accessKeyId && location.secretAccessKey ? { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey } : undefined,
    // Plain uploads and downloads: not every S3-compatible store speaks the newer checksum trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const missing = (err: unknown) => err instanceof sdk.NoSuchKey || err instanceof sdk.NotFound || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  return { sdk, Upload, client, missing };
}

export function s3Store(location: S3Location): BackupStore {
  let loaded: ReturnType<typeof loadS3> | null = null;
  const s3 = () => (loaded ??= loadS3(location));
  const Key = (key: string) => `${location.prefix}${checkKey(key)}`;
  return {
    kind: 's3',
    async put(key, file) {
      const { Upload, client } = await s3();
      // Multipart past 8 MiB, four parts in flight: an archive of any size uploads in bounded memory.
      await new Upload({ client, params: { Bucket: location.bucket, Key: Key(key), Body: createReadStream(file), ContentType: 'application/gzip' }, partSize: 8 * 1024 * 1024, queueSize: 4 }).done();
    },
    async get(key) {
      const { sdk, client, missing } = await s3();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: location.bucket, Key: Key(key) }));
        return answer.Body instanceof Readable ? answer.Body : null;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async size(key) {
      const { sdk, client, missing } = await s3();
      try {
        const answer = await client.send(new sdk.HeadObjectCommand({ Bucket: location.bucket, Key: Key(key) }));
        return answer.ContentLength ?? null;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: location.bucket, Key: Key(key) }));
    },
  };
}

/**
 * The S3 location the configuration names: `BACKUP_STORE_URL` as `s3://bucket/prefix`, its parts
 * (`BACKUP_STORE_ENDPOINT`, `_REGION`, `_ACCESS_KEY_ID`, `_SECRET_ACCESS_KEY`) beside it; null for the folder.
 */
export function s3LocationOf(config: Pick<Config, 'BACKUP_STORE_URL' | 'BACKUP_STORE_ENDPOINT' | 'BACKUP_STORE_REGION' | 'BACKUP_STORE_ACCESS_KEY_ID' | 'BACKUP_STORE_SECRET_ACCESS_KEY'>): S3Location | null {
  if (!config.BACKUP_STORE_URL) return null;
  const url = new URL(config.BACKUP_STORE_URL);
  const path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  return {
    bucket: url.hostname,
    prefix: path && !path.endsWith('/') ? `${path}/` : path,
    endpoint: config.BACKUP_STORE_ENDPOINT,
    region: config.BACKUP_STORE_REGION,
    accessKeyId: config.BACKUP_STORE_ACCESS_KEY_ID,
    secretAccessKey: config.BACKUP_STORE_SECRET_ACCESS_KEY,
  };
}

export function createBackupStore(config: Pick<Config, 'DATA_DIR' | 'BACKUP_STORE_URL' | 'BACKUP_STORE_ENDPOINT' | 'BACKUP_STORE_REGION' | 'BACKUP_STORE_ACCESS_KEY_ID' | 'BACKUP_STORE_SECRET_ACCESS_KEY'>): BackupStore {
  const s3 = s3LocationOf(config);
  return s3 ? s3Store(s3) : folderStore(join(config.DATA_DIR, 'backups'));
}
