import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/client';
import type { App } from './access';
import { BULK_TURN, ingestBulk, MAX_BULK_REQUESTS, SUCCESS } from './ingest';
import type { BatchWriter } from './ingestBatch';
import type { AppEntry, IngestCache } from './ingestCache';
import type { Write } from './ingestWrite';

// A running, paid-for server, an app whose one event key is known, written a moment ago.
const entry: AppEntry = {
  app: { id: '00000000-0000-4000-8000-000000000001', key: 'key', timezone: 'UTC', checksumSalt: null, lastDataAt: new Date(), limits: {} } as App,
  deploymentId: '00000000-0000-4000-8000-0000000000d1',
  server: { status: 'running', subscription: { status: 'active', pastDueSince: null } },
  keys: new Map([['long', []]]),
  values: new Set(),
};
const cache: IngestCache = { app: async () => entry, lastData: new Map() };

describe('a bulk call', () => {
  it('gives the event loop a turn every BULK_TURN requests while it reads them, and writes them all', async () => {
    const written: Write[] = [];
    const writer: BatchWriter = {
      write: async (w) => {
        written.push(w);
        return true;
      },
    };
    const requests = Array.from({ length: MAX_BULK_REQUESTS }, (_, n) => ({ device_id: `d-${n}`, timestamp: 1763640000000 + n, events: [{ key: 'long' }] }));
    // Checking a request awaits only cached answers: without turns, the whole call would be read before this runs.
    let writtenAtFirstTurn = -1;
    setImmediate(() => {
      writtenAtFirstTurn = written.length;
    });
    const answer = await ingestBulk({} as Db, cache, writer, { params: { app_key: 'key', requests: JSON.stringify(requests) }, rawQuery: '', rawBody: '' }, 7);
    expect(answer).toBe(SUCCESS);
    expect(written.map((w) => w.deviceId)).toEqual(requests.map((r) => r.device_id));
    expect(writtenAtFirstTurn).toBeGreaterThan(0);
    expect(writtenAtFirstTurn).toBeLessThanOrEqual(BULK_TURN);
  });
});
