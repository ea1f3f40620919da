/**
 * Embedded PGlite in a thread of its own. PGlite runs its statements on the thread that
 * holds it, so on the server's thread a long batch kept every other connection from being read;
 * here the server's thread only sends messages, and parsing requests and running SQL use both
 * cores. This side offers the part of PGlite's interface that drizzle and pg-boss call (query,
 * exec, transaction, listen, close); db/pgliteHost.ts owns the instance.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';

/** What the host is started with: a data directory, or memory (null) opened from a dump. */
export interface HostData {
  dataDir: string | null;
  snapshot?: Blob;
  /** PGlite's WebAssembly, compiled once per process and shared by its threads (tests open many). */
  code: PgliteCode;
  /** How often the thread vacuums and analyses the database (PGlite has no autovacuum). */
  maintenanceMs: number;
}
/** An hour: often enough for the planner to follow a growing table, rare enough to cost nothing. */
export const PGLITE_MAINTENANCE_MS = 3_600_000;
export interface PgliteCode {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let code: Promise<PgliteCode> | null = null;
/** PGlite's own files, the ones it would load itself in each thread. */
export function pgliteCode(): Promise<PgliteCode> {
  code ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const read = async (file: string) => new Uint8Array(await readFile(join(dist, file)));
    const [pgliteWasmModule, initdbWasmModule, fsBundle] = await Promise.all([
      read('pglite.wasm').then((bytes) => WebAssembly.compile(bytes)),
      read('initdb.wasm').then((bytes) => WebAssembly.compile(bytes)),
      read('pglite.data').then((bytes) => new Blob([bytes])),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle };
  })();
  return code;
}

interface QueryRequest {
  op: 'query';
  sql: string;
  params?: unknown[];
  rowMode?: 'array' | 'object';
  /** Type ids answered as their text (drizzle's parsers for timestamps, dates and intervals). */
  textTypes?: number[];
  tx?: number;
}
type Request =
  | QueryRequest
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen' | 'unlisten'; channel: string }
  | { op: 'close' };
export type HostRequest = Request & { id: number };

export interface SentError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}
export type HostReply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: SentError }
  | { ready: true }
  | { ready: false; error: SentError }
  | { channel: string; payload: string }
  | { maintenanceFailed: SentError };

interface CallOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The calls drizzle's session and pg-boss's adapter make inside a transaction. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: CallOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** The server's side of the thread: PGlite's calls, each one message, answered in order of completion. */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly calls = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void; stack: Error }>();
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private nextCall = 1;
  private failure: Error | null = null;
  private readonly ready: Promise<void>;

  /** Calls sent and not answered yet: the one running and those queued behind it. */
  get inFlight(): number {
    return this.calls.size;
  }

  /** Starts the thread and opens the database in it; answers once the database answers. */
  static async start(data: Omit<HostData, 'code' | 'maintenanceMs'> & { maintenanceMs?: number; onMaintenanceError?: (err: Error) => void }): Promise<PgliteThread> {
    const { onMaintenanceError, ...rest } = data;
    const thread = new PgliteThread(await hostThread({ maintenanceMs: PGLITE_MAINTENANCE_MS, ...rest, code: await pgliteCode() }), onMaintenanceError);
    await thread.ready;
    return thread;
  }

  private constructor(worker: Worker, onMaintenanceError?: (err: Error) => void) {
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (reply: HostReply) => {
        if ('ready' in reply) {
          if (this.calls.size === 0) this.worker.unref();
          return reply.ready ? resolve() : reject(received(reply.error, new Error()));
        }
        if ('maintenanceFailed' in reply) return onMaintenanceError?.(received(reply.maintenanceFailed, new Error()));
        if ('channel' in reply) return this.channels.get(reply.channel)?.forEach((listener) => listener(reply.payload));
        const call = this.calls.get(reply.id);
        if (!call) return;
        this.calls.delete(reply.id);
        if (this.calls.size === 0) this.worker.unref();
        if (reply.error) call.reject(received(reply.error, call.stack));
        else call.resolve(reply.result);
      });
      this.worker.on('error', (err) => this.fail(err, reject));
      this.worker.on('exit', (code) => this.fail(new Error(`the database thread stopped (exit code ${code})`), reject));
    });
  }

  /** A thread that stopped fails every call in flight and every later one. */
  private fail(err: Error, rejectStart: (err: Error) => void) {
    this.failure ??= err;
    rejectStart(err);
    for (const call of this.calls.values()) call.reject(err);
    this.calls.clear();
  }

  private call<T>(request: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextCall++;
    // The thread keeps the process alive only while a call waits for it, like a socket would.
    if (this.calls.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      // Made here so an error's stack shows the caller, not the thread.
      this.calls.set(id, { resolve: resolve as (value: unknown) => void, reject, stack: new Error() });
      this.worker.postMessage({ ...request, id });
    });
  }

  query<T>(sql: string, params?: unknown[], options?: CallOptions, tx?: number): Promise<Results<T>> {
    return this.call({ op: 'query', sql, params, tx, rowMode: options?.rowMode, textTypes: options?.parsers && Object.keys(options.parsers).map(Number) });
  }

  exec(sql: string, tx?: number): Promise<Results[]> {
    return this.call({ op: 'exec', sql, tx });
  }

  /** Like PGlite's: `fn` runs inside BEGIN … COMMIT, or ROLLBACK when it throws (the error goes on). */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    let rollback = false;
    const tx: ThreadTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      // As PGlite's: the transaction ends in ROLLBACK whatever `fn` answers.
      rollback: async () => {
        rollback = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      closed = true;
      await this.call({ op: 'end', tx: id, commit: false });
      throw err;
    }
    closed = true;
    await this.call({ op: 'end', tx: id, commit: !rollback });
    return result;
  }

  /** LISTEN on the one connection: pg-boss's notifier hears its own NOTIFYs without polling. */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    const listeners = this.channels.get(channel) ?? new Set();
    this.channels.set(channel, listeners);
    listeners.add(listener);
    if (listeners.size === 1) await this.call({ op: 'listen', channel });
    return async () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.channels.get(channel) === listeners) {
        this.channels.delete(channel);
        await this.call({ op: 'unlisten', channel });
      }
    };
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call({ op: 'close' });
    await this.worker.terminate();
  }
}

/**
 * Compiled, the host is dist-server/pgliteHost.js beside this chunk. From source (tests, `npm run
 * serve`) its TypeScript is turned into JavaScript once per process with esbuild, into
 * node_modules/.cache, where the host's packages resolve: a loader in the thread (tsx) would add
 * some 0.6 s to every database the tests open.
 */
async function hostThread(data: HostData): Promise<Worker> {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pgliteHost.js', import.meta.url), { workerData: data });
  host ??= (async () => {
    const { transform } = await import('esbuild');
    const source = fileURLToPath(new URL('./pgliteHost.ts', import.meta.url));
    const { code } = await transform(await readFile(source, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcefile: source });
    const dir = join(dirname(createRequire(import.meta.url).resolve('esbuild/package.json')), '..', '.cache', 'beacon');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `pgliteHost-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`);
    // Written whole, then renamed: test processes starting together may write it at once.
    const partial = `${file}.${process.pid}.${threadId}`;
    await writeFile(partial, code);
    await rename(partial, file);
    return pathToFileURL(file);
  })();
  return new Worker(await host, { workerData: data });
}
let host: Promise<URL> | null = null;

/** The thread's error as an Error here, with its database fields (code, table, constraint…). */
function received(sent: SentError, stack: Error): Error {
  const err = Object.assign(new Error(sent.message), sent.fields);
  err.name = sent.name;
  err.stack = `${sent.name}: ${sent.message}${(stack.stack ?? '').replace(/^Error\n?/, '\n')}`;
  return err;
}
