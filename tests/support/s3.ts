import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local S3-compatible server for tests (as tests/support/paddle.ts stands in for Paddle's API):
 * path-style addressing, the object calls the backup store makes (PUT, GET, HEAD, DELETE) and
 * multipart uploads (create, upload part, complete, abort), answering S3's XML. Requests must be
 * signed (SigV4) with the test's access key id. Objects are kept in memory, where a test can read
 * or damage them.
 */
export interface FakeS3 {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, Buffer>;
  /** Method and path of every call, in order. */
  calls: string[];
  close(): Promise<void>;
}

const xml = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};
const s3Error = (res: ServerResponse, status: number, code: string, message: string) => xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(bucket = 'beacon-backups'): Promise<FakeS3> {
  const accessKeyId = 'TESTACCESSKEY';
  const secretAccessKey = 'test-secret-access-key';
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const calls: string[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://s3.local');
      calls.push(`${req.method} ${url.pathname}${url.search}`);
      if (!(req.headers.authorization ?? '').startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) return s3Error(res, 403, 'InvalidAccessKeyId', 'The access key id is not known.');
      const [, b, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (b !== bucket) return s3Error(res, 404, 'NoSuchBucket', 'The bucket does not exist.');
      const uploadId = url.searchParams.get('uploadId');
      const body = await bodyOf(req);
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = randomUUID();
        uploads.set(id, { key, parts: new Map() });
        return xml(res, 200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (uploadId) {
        const upload = uploads.get(uploadId);
        if (!upload) return s3Error(res, 404, 'NoSuchUpload', 'The upload does not exist.');
        if (req.method === 'PUT') {
          upload.parts.set(Number(url.searchParams.get('partNumber')), body);
          return res.writeHead(200, { etag: `"${randomUUID()}"` }).end();
        }
        if (req.method === 'POST') {
          const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
          objects.set(key, Buffer.concat(numbers.map((n) => upload.parts.get(n) ?? Buffer.alloc(0))));
          uploads.delete(uploadId);
          return xml(res, 200, `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`);
        }
        if (req.method === 'DELETE') {
          uploads.delete(uploadId);
          return res.writeHead(204).end();
        }
      }
      const object = objects.get(key);
      switch (req.method) {
        case 'PUT':
          objects.set(key, body);
          return res.writeHead(200, { etag: `"${randomUUID()}"` }).end();
        case 'GET':
          if (!object) return s3Error(res, 404, 'NoSuchKey', 'The key does not exist.');
          return res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': object.length }).end(object);
        case 'HEAD':
          if (!object) return res.writeHead(404).end();
          return res.writeHead(200, { 'content-length': object.length }).end();
        case 'DELETE':
          objects.delete(key);
          return res.writeHead(204).end();
        default:
          return s3Error(res, 405, 'MethodNotAllowed', 'Not supported here.');
      }
    })().catch((err: unknown) => s3Error(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The settings that point Beacon's backup store at the fake. */
export const s3Settings = (s3: FakeS3, prefix = 'tenants') => ({
  BACKUP_STORE_URL: `s3://${s3.bucket}/${prefix}`,
  BACKUP_STORE_ENDPOINT: s3.url,
  BACKUP_STORE_ACCESS_KEY_ID: s3.accessKeyId,
  BACKUP_STORE_SECRET_ACCESS_KEY: s3.secretAccessKey,
});
