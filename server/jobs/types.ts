import type { QuoteNotices } from '../services/quotes';
import type { TaskType } from '../../src/domain/deployments/tasks';
import type { Config } from '../config';
import type { Db, SnapshotReader } from '../db/client';
import type { BackupStore } from '../backups/store';
import type { CloudProvider } from '../providers';
import type { TaskQueue } from '../queue';
import type { DeploymentRow, RuntimePatch, RuntimeRow, TaskRow } from '../services/deploymentTasks';
import type { PaymentGateway } from '../services/payments';
import type { ServerHealth } from '../services/serverHealth';

export type StepResult = Record<string, unknown>;
export type { RuntimePatch };

/** What a task handler gets: its task, its server, the provider, and `step` to do things once. */
export interface TaskContext {
  task: TaskRow;
  deployment: DeploymentRow;
  runtime: RuntimeRow;
  provider: CloudProvider;
  /** The payment vendor: a terminated server stops being billed, a restored one is billed again. */
  payments: PaymentGateway;
  /** Where backup archives are kept (server/backups/store.ts). */
  backups: BackupStore;
  /** PostgreSQL's streamed snapshot reads for backups (Database.snapshot); null on PGlite. */
  snapshot: (() => Promise<SnapshotReader>) | null;
  config: Config;
  db: Db;
  queue: TaskQueue;
  /** Probes the server's real path and records the check (services/serverHealth.ts). */
  health: ServerHealth;
  /** Mails about quotes: a quoted server that runs is announced to its preparer. */
  quoteNotices: QuoteNotices;
  /**
   * Runs `fn` unless the task's step log says `name` is done (then returns what it returned).
   * `persist` writes what the step changed in the transaction that records the step, so the log
   * and our state never disagree. The provider call in `fn` gets `key(name)` as its request key.
   */
  step<T extends StepResult>(name: string, fn: (key: string) => Promise<T>, persist?: (tx: Db, result: T) => Promise<void>): Promise<T>;
  /** Waits until the machine has booted (or the wait times out). */
  waitForBoot(machineId: string): Promise<void>;
  /** Changes our record of the server's runtime (in the given transaction). */
  setRuntime(tx: Db, patch: RuntimePatch): Promise<void>;
}

export interface TaskHandler {
  type: TaskType;
  /** The steps' names, in order: progress is the share done. */
  steps: readonly string[];
  run(ctx: TaskContext): Promise<void>;
  /** Written with the task's completion, in its transaction. */
  finish?(tx: Db, ctx: TaskContext): Promise<void>;
  /** Told once the completion has committed (mails): a failure is logged, the task stays done. */
  announce?(ctx: TaskContext): Promise<void>;
  /** Written when the task fails for good, in that transaction. */
  fail?(tx: Db, ctx: TaskContext, error: string): Promise<void>;
}

/** A failure no retry can mend (a damaged archive, a backup of another server): the task fails at once with this message. */
export class TaskRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskRefused';
  }
}
