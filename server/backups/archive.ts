import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import { z } from 'zod';
import type { Db, SnapshotReader } from '../db/client';
import { schemaVersion } from '../db/schemaVersion';
import { rowsOf, TENANT_TABLES, tenantRowsSql, type TenantTable } from './tenantTables';

/**
 * A tenant's backup archive (docs/backup-format.md): a gzip'd tar holding `manifest.json` first,
 * then one NDJSON part per table (`tables/<table>.ndjson`, one `row_to_json` object a line). The
 * manifest names the schema version, each part's rows, bytes and SHA-256, and a SHA-256 over them
 * all. Written from one REPEATABLE READ snapshot, a cursor at a time, so memory stays flat
 * whatever the tenant's size; read back into temporary files and verified before anything loads.
 */
export const ARCHIVE_FORMAT = 'beacon-tenant-backup';
export const ARCHIVE_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const partFile = (table: string) => `tables/${table}.ndjson`;
/**
 * The database joins rows into chunks of this many lines, and the cursor hands over a few chunks
 * at a time: one string a chunk instead of a row object and a string a row, which is what raised
 * a 1,000,000-event backup's resident memory by 270 MB on PostgreSQL (garbage, not held).
 */
const CHUNK_ROWS = 500;
const FETCH_CHUNKS = 4;

const sha = z.string().regex(/^[0-9a-f]{64}$/);
export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int().positive(),
  schemaVersion: z.number().int().nonnegative(),
  deploymentId: z.string(),
  tenantId: z.string(),
  backupId: z.string(),
  takenAt: z.string(),
  tables: z.array(z.object({ table: z.string(), file: z.string(), rows: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), sha256: sha, columns: z.array(z.string()) })),
  sha256: sha,
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** An archive that must not be restored: missing, damaged, of another server, or from a newer schema. */
export class ArchiveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveRefused';
  }
}

/** The manifest's whole checksum: SHA-256 over the parts' `sha256sum` lines, in the manifest's order. */
export const wholeChecksum = (parts: { sha256: string; file: string }[]) => createHash('sha256').update(parts.map((p) => `${p.sha256}  ${p.file}\n`).join('')).digest('hex');

async function write(stream: WriteStream, data: string | Buffer): Promise<void> {
  if (!stream.write(data)) await once(stream, 'drain');
}
const closed = (stream: WriteStream) => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));

/** Counts and hashes what passes through. */
function tap(hash: Hash, count: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      count.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

export interface WrittenArchive {
  /** The archive file, in `dir` (the caller removes `dir`). */
  file: string;
  dir: string;
  sizeBytes: number;
  sha256: string;
  manifest: BackupManifest;
}

type Part = BackupManifest['tables'][number];
const orderOf = (spec: TenantTable) => spec.orderBy.map((c) => `x.${c}`).join(', ');

/** Writes one table's part from chunks of its NDJSON, counting lines, bytes and the SHA-256 as they pass. */
async function spoolPart(path: string, chunks: AsyncIterable<string | Buffer>): Promise<Pick<Part, 'rows' | 'bytes' | 'sha256'>> {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  for await (const chunk of chunks) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    hash.update(buf);
    bytes += buf.length;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) rows += 1;
    await write(out, buf);
  }
  await closed(out);
  return { rows, bytes, sha256: hash.digest('hex') };
}

/** The table's columns in order (the manifest records them: an older archive loads into a newer schema). */
const columnsOf = async (db: Db, table: string) =>
  (await rowsOf<{ name: string }>(db, sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`)).map((r) => r.name);

/**
 * Dumps the tenant into a new archive file: every table read in one REPEATABLE READ snapshot (so
 * data arriving meanwhile is wholly in or wholly after), each part spooled to a local file, then
 * packed and compressed once the snapshot has ended. On PostgreSQL (`snapshot`) each table's lines
 * stream out by COPY; on PGlite a cursor hands over chunks the database joined.
 */
export async function writeTenantArchive(db: Db, target: { tenantId: string; deploymentId: string; backupId: string }, snapshot: (() => Promise<SnapshotReader>) | null = null): Promise<WrittenArchive> {
  const dir = await mkdtemp(join(tmpdir(), 'beacon-backup-'));
  try {
    const parts: Part[] = [];
    const partPath = (spec: TenantTable) => join(dir, `${spec.table}.ndjson`);
    let takenAt: string;
    if (snapshot) {
      const reader = await snapshot();
      try {
        takenAt = reader.takenAt;
        for (const spec of TENANT_TABLES) {
          const columns = await columnsOf(db, spec.table);
          const written = await spoolPart(partPath(spec), reader.lines(`select row_to_json(x)::text from ${tenantRowsSql(spec, target.tenantId)} order by ${orderOf(spec)}`));
          parts.push({ table: spec.table, file: partFile(spec.table), columns, ...written });
        }
      } finally {
        await reader.close();
      }
    } else {
      takenAt = await db.transaction(
        async (tx) => {
          const [{ now } = { now: '' }] = await rowsOf<{ now: string }>(tx, sql`select to_json(now())#>>'{}' as now`);
          for (const spec of TENANT_TABLES) {
            const columns = await columnsOf(tx, spec.table);
            const numbered = `select row_to_json(x)::text as r, row_number() over (order by ${orderOf(spec)}) - 1 as n from ${tenantRowsSql(spec, target.tenantId)}`;
            await tx.execute(sql.raw(`declare backup_part no scroll cursor for select string_agg(r, E'\\n' order by n) || E'\\n' as chunk from (${numbered}) numbered group by n / ${CHUNK_ROWS} order by n / ${CHUNK_ROWS}`));
            const chunks = async function* () {
              for (;;) {
                const batch = await rowsOf<{ chunk: string }>(tx, sql.raw(`fetch ${FETCH_CHUNKS} from backup_part`));
                if (batch.length === 0) return;
                for (const { chunk } of batch) yield chunk;
              }
            };
            const written = await spoolPart(partPath(spec), chunks());
            await tx.execute(sql.raw('close backup_part'));
            parts.push({ table: spec.table, file: partFile(spec.table), columns, ...written });
          }
          return now;
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    }
    const manifest: BackupManifest = { format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, schemaVersion: schemaVersion(), ...target, takenAt, tables: parts, sha256: wholeChecksum(parts) };

    const file = join(dir, 'archive.tar.gz');
    const pack = tar.pack();
    const hash = createHash('sha256');
    const count = { bytes: 0 };
    const packing = pipeline(pack, createGzip(), tap(hash, count), createWriteStream(file));
    const manifestText = Buffer.from(JSON.stringify(manifest, null, 2));
    pack.entry({ name: MANIFEST, size: manifestText.length, mtime: new Date(takenAt) }, manifestText);
    for (const part of parts) {
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: part.file, size: part.bytes, mtime: new Date(takenAt) }, (err) => (err ? reject(err) : resolve()));
        pipeline(createReadStream(join(dir, `${part.table}.ndjson`)), entry).catch(reject);
      });
      await rm(join(dir, `${part.table}.ndjson`));
    }
    pack.finalize();
    await packing;
    return { file, dir, sizeBytes: count.bytes, sha256: hash.digest('hex'), manifest };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

export interface VerifiedArchive {
  manifest: BackupManifest;
  /** Where each table's part was unpacked. */
  partPath(table: string): string;
  dir: string;
}

export interface ArchiveExpectations {
  /** The archive must be this server's (a customer's restore); a move between databases names none. */
  deploymentId?: string;
  backupId?: string;
  /** The archive file's checksum and size, as recorded when it was stored. */
  sha256?: string | null;
  sizeBytes?: number | null;
}

/**
 * Unpacks an archive into a new temporary folder and checks everything before any row is touched:
 * the file's checksum and size, the manifest (format, schema version, server), every part present,
 * none unknown, each with its bytes, rows and SHA-256, and the whole checksum. Refuses with
 * `ArchiveRefused` saying what is wrong.
 */
export async function readTenantArchive(source: Readable, expect: ArchiveExpectations): Promise<VerifiedArchive> {
  const dir = await mkdtemp(join(tmpdir(), 'beacon-restore-'));
  try {
    const fileHash = createHash('sha256');
    const count = { bytes: 0 };
    const extract = tar.extract();
    const feeding = pipeline(source, tap(fileHash, count), createGunzip(), extract).catch((err: unknown) => {
      throw new ArchiveRefused(`the archive is damaged or incomplete (${err instanceof Error ? err.message : String(err)})`);
    });
    let manifest: BackupManifest | null = null;
    const seen = new Map<string, { sha256: string; bytes: number; rows: number }>();
    const reading = (async () => {
      for await (const entry of extract) {
        const name = entry.header.name;
        if (!manifest) {
          if (name !== MANIFEST || (entry.header.size ?? 0) > 4 * 1024 * 1024) throw new ArchiveRefused('the archive does not start with its manifest');
          const chunks: Buffer[] = [];
          for await (const chunk of entry) chunks.push(chunk as Buffer);
          manifest = checkManifest(Buffer.concat(chunks).toString('utf8'), expect);
          continue;
        }
        const part = manifest.tables.find((t) => t.file === name);
        if (!part || seen.has(part.table)) throw new ArchiveRefused(`the archive holds an unexpected part: ${name}`);
        const hash = createHash('sha256');
        let bytes = 0;
        let rows = 0;
        const out = createWriteStream(join(dir, `${part.table}.ndjson`));
        for await (const chunk of entry) {
          const buf = chunk as Buffer;
          hash.update(buf);
          bytes += buf.length;
          for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) rows += 1;
          await write(out, buf);
        }
        await closed(out);
        seen.set(part.table, { sha256: hash.digest('hex'), bytes, rows });
      }
    })();
    // Both ends settle: a damaged stream stops the reader, a refusal by the reader stops the stream.
    const [fed, read] = await Promise.allSettled([feeding, reading]);
    if (read.status === 'rejected') {
      source.destroy();
      throw read.reason instanceof ArchiveRefused ? read.reason : fed.status === 'rejected' ? fed.reason : new ArchiveRefused(`the archive is damaged or incomplete (${String(read.reason)})`);
    }
    if (fed.status === 'rejected') throw fed.reason;
    const found = manifest as BackupManifest | null;
    if (!found) throw new ArchiveRefused('the archive has no manifest');
    if (expect.sizeBytes != null && count.bytes !== expect.sizeBytes) throw new ArchiveRefused(`the archive is ${count.bytes} bytes, ${expect.sizeBytes} were stored`);
    if (expect.sha256 && fileHash.digest('hex') !== expect.sha256) throw new ArchiveRefused('the archive does not match the checksum recorded when it was stored');
    for (const part of found.tables) {
      const got = seen.get(part.table);
      if (!got) throw new ArchiveRefused(`the archive is missing its part ${part.file}`);
      if (got.sha256 !== part.sha256 || got.bytes !== part.bytes) throw new ArchiveRefused(`the part ${part.file} does not match its checksum`);
      if (got.rows !== part.rows) throw new ArchiveRefused(`the part ${part.file} holds ${got.rows} rows, its manifest says ${part.rows}`);
    }
    if (wholeChecksum(found.tables) !== found.sha256) throw new ArchiveRefused("the manifest's checksum does not match its parts");
    return { manifest: found, dir, partPath: (table) => join(dir, `${table}.ndjson`) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err instanceof ArchiveRefused ? err : new ArchiveRefused(`the archive could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
}

function checkManifest(text: string, expect: ArchiveExpectations): BackupManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ArchiveRefused('the manifest is not valid JSON');
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) throw new ArchiveRefused('the manifest is not a Beacon backup manifest');
  const manifest = result.data;
  if (manifest.formatVersion > ARCHIVE_FORMAT_VERSION) throw new ArchiveRefused(`the archive's format ${manifest.formatVersion} is newer than this Beacon reads (${ARCHIVE_FORMAT_VERSION})`);
  if (manifest.schemaVersion > schemaVersion()) throw new ArchiveRefused(`the archive was made by a newer Beacon (schema ${manifest.schemaVersion}, this one has ${schemaVersion()})`);
  if (expect.deploymentId && manifest.deploymentId !== expect.deploymentId) throw new ArchiveRefused('the archive belongs to another server');
  if (expect.backupId && manifest.backupId !== expect.backupId) throw new ArchiveRefused('the archive belongs to another backup');
  const known = new Set(TENANT_TABLES.map((t) => t.table));
  const unknown = manifest.tables.find((t) => !known.has(t.table) || t.file !== partFile(t.table));
  if (unknown) throw new ArchiveRefused(`the manifest names an unknown table: ${unknown.table}`);
  return manifest;
}

/** Removes an archive's temporary folder. */
export const discard = (dir: string) => rm(dir, { recursive: true, force: true });
