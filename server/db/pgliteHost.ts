/**
 * The thread that owns the embedded database (started by db/pgliteThread.ts): it opens PGlite and
 * runs what the server's thread asks for, one message per call. PGlite runs one statement at a
 * time and queues the rest behind an open transaction, as in the server's thread before.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
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
 */
async function preparedQuery(sql: string, params: unknown[], queryOptions: (QueryOptions & { parsers: Parsers }) | undefined, inTransaction: boolean): Promise<Results> {
  const { name, types, rows } = await prepare(sql);
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[types[i] ?? 0];
    return serializer ? serializer(value) : String(value);
  });
  try {
    const { messages } = await pglite.execProtocol(joined([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]), { syncToFs: !inTransaction });
    // The kept set is complete: passed as the parsers, PGlite merges nothing.
    const [result] = parse.parseResults(rows ? [rows, ...messages] : messages, queryOptions?.parsers ?? pglite.parsers, queryOptions && { rowMode: queryOptions.rowMode });
    if (!result) throw new Error('no result');
    return result;
  } catch (err) {
    if (isStale(err)) statements.delete(sql);
    throw err;
  }
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
