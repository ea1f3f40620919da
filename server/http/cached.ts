import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One answer body serialised and compressed once, with its ETag: sent many times as it is. */
export interface Encoded {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Compresses at the best ratio, off the main thread (libuv's pool): brotli 11 on index.html takes
 * a tenth of a second, which the server's start would otherwise wait for.
 */
export async function encodeOnce(raw: Buffer): Promise<Encoded> {
  const [br, gz] = await Promise.all([
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzipped(raw, { level: 9 }),
  ]);
  return { raw, br, gzip: gz, etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"` };
}

/** The best encoding the request accepts: brotli, then gzip, else none. */
export function acceptedEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
}

export function etagMatches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a prepared body: 304 when the browser holds this version, else the best encoding it
 * accepts. `type` is the content type of the raw bytes.
 */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: Encoded, type: string, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', body.etag).header('vary', 'accept-encoding').type(type);
  if (etagMatches(request, body.etag)) return reply.code(304).send();
  const encoding = acceptedEncoding(request);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? body[encoding] : body.raw);
}
