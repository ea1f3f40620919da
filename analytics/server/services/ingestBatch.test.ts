import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/client';
import type { App } from './access';
import { createBatchWriter } from './ingestBatch';
import type { Write } from './ingestWrite';

const app = { id: '00000000-0000-4000-8000-000000000001', timezone: 'UTC' } as App;

const request = (n: number): Write => ({
  app,
  hash: `hash-${n}`,
  deviceId: `device-${n}`,
  at: new Date('2026-11-26T08:00:00Z'),
  day: '2026-11-26',
  begin: true,
  duration: 0,
  metrics: {},
  details: {},
  events: [{ key: 'purchase', count: 1, sum: null, dur: null, at: new Date('2026-11-26T08:00:00Z'), segmentation: {} }],
  internal: [],
  drops: new Map(),
});

/** A database answering every batch statement with all its requests new; `refuse` names devices it refuses. */
function fakeDb(refuse: string[] = []) {
  const statements: string[][] = [];
  const execute = async (params: unknown[]) => {
    // The first JSON parameter holds the batch's requests.
    const param = params.find((c): c is string => typeof c === 'string' && c.startsWith('[{"i":0'));
    const rows = JSON.parse(param ?? '[]') as { i: number; dev: string }[];
    statements.push(rows.map((r) => r.dev));
    if (rows.some((r) => refuse.includes(r.dev))) throw new Error('refused');
    return { rows: rows.map((r) => ({ i: r.i })) };
  };
  // The batch statement is run as a named (prepared) query through the driver's session.
  const db = { _: { session: { prepareQuery: (query: { params: unknown[] }) => ({ execute: () => execute(query.params) }) } } };
  return { db: db as unknown as Db, statements };
}

describe('the ingestion batch writer', () => {
  it('writes requests arriving together as one statement and answers each after it', async () => {
    const { db, statements } = fakeDb();
    const writer = createBatchWriter({ db, options: { maxRequests: 25 } });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => writer.write(request(n))));
    expect(answers).toEqual(Array.from({ length: 10 }, () => true));
    expect(statements).toEqual([Array.from({ length: 10 }, (_, n) => `device-${n}`)]);
  });

  it('never puts more than maxRequests in one statement, keeping the order they came in', async () => {
    const { db, statements } = fakeDb();
    const writer = createBatchWriter({ db, options: { maxRequests: 25 } });
    await Promise.all(Array.from({ length: 60 }, (_, n) => writer.write(request(n))));
    expect(statements.map((s) => s.length)).toEqual([25, 25, 10]);
    expect(statements.flat()).toEqual(Array.from({ length: 60 }, (_, n) => `device-${n}`));
  });

  it('fails only the request the database refuses: the others of its batch are written alone', async () => {
    const { db, statements } = fakeDb(['device-3']);
    const writer = createBatchWriter({ db, options: { maxRequests: 25 } });
    const answers = await Promise.allSettled(Array.from({ length: 5 }, (_, n) => writer.write(request(n))));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(statements[0]).toHaveLength(5);
    expect(statements.slice(1)).toEqual([['device-0'], ['device-1'], ['device-2'], ['device-3'], ['device-4']]);
  });
});
