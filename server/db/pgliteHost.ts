/**
 * The thread that owns the embedded database (started by db/pgliteThread.ts): it opens PGlite and
 * runs what the server's thread asks for, one message per call. PGlite runs one statement at a
 * time and queues the rest behind an open transaction, as in the server's thread before.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol, types, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { HostData, HostReply, HostRequest, SentError } from './pgliteThread';

const port = parentPort;
if (!port) throw new Error('pgliteHost runs as a worker thread');
const { dataDir, snapshot, code, maintenanceMs } = workerData as HostData;
// pg_trgm serves the admin lists' `%text%` search (the migration creates the extension).
const extensions = { pg_trgm };
const pglite = dataDir === null ? new PGlite({ extensions, loadDataDir: snapshot, ...code }) : new PGlite(dataDir, { extensions, ...code });

interface Open {
  tx: Transaction;
  end: (commit: boolean) => void;
  done: Promise<unknown>;
}
const transactions = new Map<number, Open>();
const listeners = new Map<string, () => Promise<void>>();
/** A NOTIFY heard on a channel listened to: sent to the server's thread (the channel as PostgreSQL names it, unquoted names folded). */
function notify(channel: string, payload: string) {
  for (const listened of listeners.keys()) if ((/^".*"$/.test(listened) ? listened.slice(1, -1) : listened.toLowerCase()) === channel) reply({ channel: listened, payload });
}
let nextTransaction = 1;

/** A database error's fields (code, detail, table, constraint…) travel as plain values. */
function sent(err: unknown): SentError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(err)) if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean;
  return { name: err.name, message: err.message, fields };
}

const reply = (message: HostReply) => port.postMessage(message);

/**
 * drizzle asks for some types as their text (timestamps, dates, intervals): the same parsers here.
 * Each set is merged with PGlite's own once and kept: PGlite copies the two maps into one on every
 * call that brings its own, which cost more than parsing a page of rows.
 */
type Parsers = PGlite['parsers'];
const parserSets = new Map<string, QueryOptions & { parsers: Parsers }>();
function options(request: { rowMode?: 'array' | 'object'; textTypes?: number[] }): (QueryOptions & { parsers: Parsers }) | undefined {
  if (!request.rowMode && !request.textTypes) return undefined;
  const key = `${request.rowMode ?? ''}:${(request.textTypes ?? []).join(',')}`;
  let kept = parserSets.get(key);
  if (!kept) {
    const asText = Object.fromEntries((request.textTypes ?? []).map((oid) => [oid, (value: string) => value]));
    kept = { rowMode: request.rowMode, parsers: { ...pglite.parsers, ...asText } };
    parserSets.set(key, kept);
  }
  return kept;
}

/**
 * Statements kept prepared, by their text, the most recently used last. PGlite's own `query` parses
 * and plans every statement again; a join or the ingestion batch spends more time planning than
 * running (1 to 20 ms in WebAssembly). Prepared, PostgreSQL plans one again only as it sees fit
 * (after five runs a generic plan, when it is as good), like a driver that prepares each statement.
 */
type Message = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
/** A kept statement: its name, its parameters' types and its rows' description (none for a statement without rows). */
type Kept = { name: string; types: number[]; rows: Message | undefined };
const statements = new Map<string, Kept>();
const STATEMENTS_KEPT = 500;
let nextStatement = 1;
const { serialize } = protocol;
const joined = (parts: Uint8Array[]) => Buffer.concat(parts);

async function prepare(sql: string): Promise<Kept> {
  const kept = statements.get(sql);
  if (kept) {
    statements.delete(sql);
    statements.set(sql, kept);
    return kept;
  }
  const name = `beacon_${nextStatement++}`;
  const { messages } = await pglite.execProtocol(joined([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
  const statement = { name, types: parse.parseDescribeStatementResults(messages), rows: messages.find((m) => m.name === 'rowDescription') };
  statements.set(sql, statement);
  const [oldest] = statements;
  if (statements.size > STATEMENTS_KEPT && oldest) {
    statements.delete(oldest[0]);
    await pglite.execProtocol(joined([serialize.close({ type: 'S', name: oldest[1].name }), serialize.sync()]), { syncToFs: false });
  }
  return statement;
}

/**
 * One statement through its kept preparation: bind, execute and sync in one call. Its rows'
 * description was kept when it was prepared, so it is not asked for again: for a wide row
 * (a page of servers), describing it and decoding its column names cost about 7 % of the reads.
 * The answer is read here from PGlite's raw bytes (readAnswer) rather than by PGlite's parser.
 */
async function preparedQuery(sql: string, params: unknown[], queryOptions: (QueryOptions & { parsers: Parsers }) | undefined, inTransaction: boolean): Promise<Results> {
  const { name, types: paramTypes, rows } = await prepare(sql);
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[paramTypes[i] ?? 0];
    return serializer ? serializer(value) : String(value);
  });
  try {
    const chunks: Uint8Array[] = [];
    // The chunks are views of PGlite's memory, valid only during the call: copied.
    await pglite.execProtocolRawStream(joined([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]), { syncToFs: !inTransaction, onRawData: (chunk) => chunks.push(chunk.slice()) });
    return readAnswer(chunks.length === 1 && chunks[0] ? chunks[0] : joined(chunks), rows, queryOptions?.parsers ?? pglite.parsers, queryOptions?.rowMode);
  } catch (err) {
    if (isStale(err)) statements.delete(sql);
    throw err;
  }
}

const DATA_ROW = 0x44;
const COMMAND_COMPLETE = 0x43;
const ERROR = 0x45;
const NOTIFICATION = 0x41;
const ROW_DESCRIPTION = 0x54;

/**
 * A bound statement's answer read from the wire bytes: its rows (parsed by the same type parsers)
 * and its command's row count, as PGlite's parseResults gives them. PGlite's own parser copies
 * every field into a new buffer before decoding it, a sixth of the thread's time on a page of
 * servers; here a field is decoded where it lies. An error or a notification (rare here: this is
 * one statement, not a transaction's end) goes through PGlite's parser, so both stay PGlite's.
 */
function readAnswer(bytes: Uint8Array, description: Message | undefined, parsers: Parsers, rowMode: 'array' | 'object' | undefined): Results {
  // As a Buffer, a field's text is decoded natively in place (toString), without a view per field.
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fields = description && 'fields' in description ? (description.fields as { name: string; dataTypeID: number }[]).map(({ name, dataTypeID }) => ({ name, dataTypeID })) : [];
  const fieldParsers = fields.map(({ dataTypeID }) => parsers[dataTypeID] ?? types.parsers[dataTypeID]);
  const rows: unknown[] = [];
  let affectedRows = 0;
  let result: Results | undefined;
  for (let at = 0; at < data.length; at += 1 + view.getInt32(at + 1)) {
    const type = data[at];
    if (type === ERROR || type === NOTIFICATION || (type === ROW_DESCRIPTION && !description)) return fromMessages(data, description, parsers, rowMode);
    if (type === DATA_ROW) {
      const count = view.getInt16(at + 5);
      const values: unknown[] = new Array(count);
      let p = at + 7;
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(p);
        p += 4;
        if (length < 0) {
          values[i] = null;
          continue;
        }
        const value = data.toString('utf8', p, p + length);
        p += length;
        const parser = fieldParsers[i];
        values[i] = parser ? parser(value, fields[i]?.dataTypeID ?? 0) : value;
      }
      rows.push(rowMode === 'array' ? values : Object.fromEntries(fields.map((f, i) => [f.name, values[i]])));
    } else if (type === COMMAND_COMPLETE && !result) {
      const words = data.toString('utf8', at + 5, at + view.getInt32(at + 1)).split(' ');
      const command = words[0] ?? '';
      const count = parseInt(words[words.length - 1] ?? '', 10);
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command)) affectedRows += count;
      result = { rows, fields, command, affectedRows, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results;
    }
  }
  return result ?? { affectedRows: 0, rows: [], fields: [] };
}

/** The answer through PGlite's own parser: its error thrown as PGlite throws it, notifications sent to their listeners. */
function fromMessages(data: Uint8Array, description: Message | undefined, parsers: Parsers, rowMode: 'array' | 'object' | undefined): Results {
  const messages: Message[] = [];
  new protocol.Parser().parse(data, (message) => messages.push(message));
  const error = messages.find((m): m is InstanceType<typeof protocol.messages.DatabaseError> => m instanceof protocol.messages.DatabaseError);
  for (const m of messages) if (m instanceof protocol.messages.NotificationResponseMessage) notify(m.channel, m.payload);
  if (error) throw error;
  const [result] = parse.parseResults(description ? [description, ...messages] : messages, parsers, { rowMode });
  return result ?? { affectedRows: 0, rows: [], fields: [] };
}

/** PostgreSQL's answer when a table changed under a kept statement ("cached plan must not change result type"). */
const isStale = (err: unknown) => err instanceof Error && (err as { code?: string }).code === '0A000' && /cached plan/.test(err.message);

/**
 * A query outside a transaction waits for any open one, as PGlite's `query` does (its two locks);
 * inside one, it holds the transaction already.
 */
function query(request: { sql: string; params?: unknown[]; tx?: number }, queryOptions: (QueryOptions & { parsers: Parsers }) | undefined): Promise<Results> {
  const run = () => pglite._runExclusiveQuery(() => preparedQuery(request.sql, request.params ?? [], queryOptions, request.tx !== undefined));
  // Outside a transaction a statement whose table changed is simply prepared again.
  if (request.tx === undefined) return pglite._runExclusiveTransaction(() => run().catch((err: unknown) => (isStale(err) ? run() : Promise.reject(err))));
  if (!transactions.has(request.tx)) throw new Error(`transaction ${request.tx} is not open`);
  return run();
}

function target(tx: number | undefined): Transaction | PGlite {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

async function run(request: HostRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return query(request, options(request));
    case 'exec':
      return target(request.tx).exec(request.sql);
    case 'begin':
      return begin();
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      open.end(request.commit);
      await open.done;
      return null;
    }
    case 'listen': {
      if (!listeners.has(request.channel)) listeners.set(request.channel, await pglite.listen(request.channel, (payload) => reply({ channel: request.channel, payload })));
      return null;
    }
    case 'unlisten': {
      await listeners.get(request.channel)?.();
      listeners.delete(request.channel);
      return null;
    }
    case 'close':
      clearInterval(maintenance);
      await pglite.close();
      return null;
  }
}

/** Opens a transaction and keeps it open until the server's thread ends it: answers its number. */
function begin(): Promise<number> {
  return new Promise((resolve, reject) => {
    const id = nextTransaction++;
    let began = false;
    const done = pglite
      .transaction(async (tx) => {
        const commit = await new Promise<boolean>((end) => {
          transactions.set(id, { tx, end, done });
          began = true;
          resolve(id);
        });
        if (!commit) await tx.rollback();
      })
      .finally(() => transactions.delete(id));
    // Before it began, a failure is the begin's; after, the end's (it awaits `done`).
    done.catch((err: unknown) => {
      if (!began) reject(err);
    });
  });
}

// PGlite has no autovacuum (one process, no background workers): without this the planner's
// statistics never follow the tables' growth and updated aggregates leave their old rows behind.
// Statements wait while it runs; it reads only what changed since the last run.
const maintenance = setInterval(() => {
  pglite.exec('VACUUM (ANALYZE)').catch((err: unknown) => port.postMessage({ maintenanceFailed: sent(err) } satisfies HostReply));
}, maintenanceMs);
maintenance.unref();

port.on('message', (request: HostRequest) => {
  run(request).then(
    (result) => reply({ id: request.id, result }),
    (err: unknown) => reply({ id: request.id, error: sent(err) }),
  );
});

pglite.waitReady.then(
  () => reply({ ready: true }),
  (err: unknown) => reply({ ready: false, error: sent(err) }),
);
