import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import type { PgliteThread } from '../../server/db/pgliteThread';
import { SCHEDULES, startQueue, TASK_QUEUE } from '../../server/queue';
import { captureLog } from '../support/logCapture';
import { freshSnapshot } from '../support/testApp';

/**
 * A worker whose database connection cannot LISTEN (a pooler in transaction mode, a dropped
 * connection) still takes jobs, by polling, and says so in the log. Always on the embedded
 * database, whose connection is the one this test can take LISTEN away from.
 */
describe('the task queue without LISTEN/NOTIFY', () => {
  let dataDir: string;
  let database: Database;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'beacon-queue-'));
    database = await openDatabase({ databaseUrl: 'memory://', dataDir, snapshot: await freshSnapshot() });
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('warns that its workers poll instead, and a job sent is still taken by the poll', async () => {
    const thread = database.pglite;
    if (!thread) throw new Error('the embedded database has a thread');
    const noListen = Object.assign(Object.create(thread) as PgliteThread, { listen: () => Promise.reject(new Error('LISTEN is not supported here')) });
    const log = captureLog();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const queue = await startQueue({ database: { ...database, pglite: noListen }, config, log: pino({ level: 'warn' }, log.stream), worker: true });
    try {
      expect(log.text()).toContain('Continuing with polling only');
      const taken = new Promise<string>((resolve) => {
        void queue.boss.work<{ deploymentId: string }>(TASK_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => resolve(job?.data.deploymentId ?? ''));
      });
      await queue.boss.send(TASK_QUEUE, { deploymentId: 'polled', taskId: 't1' }, { singletonKey: 'polled' });
      expect(await taken).toBe('polled');
    } finally {
      await queue.stop();
    }
  });

  it("gives a schedule's queue made before notices the notify flag when a worker starts", async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const log = pino({ level: 'silent' });
    const [name] = SCHEDULES;
    const before = await startQueue({ database, config, log, worker: false });
    try {
      await before.boss.updateQueue(name, { notify: false });
      expect((await before.boss.getQueue(name))?.notify).toBe(false);
    } finally {
      await before.stop();
    }
    const worker = await startQueue({ database, config, log, worker: true });
    try {
      expect((await worker.boss.getQueue(name))?.notify).toBe(true);
    } finally {
      await worker.stop();
    }
  });
});
