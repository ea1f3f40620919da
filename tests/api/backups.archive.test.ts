import { createReadStream, readFileSync } from 'node:fs';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discard, readTenantArchive, writeTenantArchive, type VerifiedArchive } from '../../server/backups/archive';
import { loadTenantArchive } from '../../server/backups/load';
import { TENANT_TABLES } from '../../server/backups/tenantTables';
import * as schema from '../../server/db/schema';
import { analyticsServer, createAnalyticsApp, hit } from '../support/analytics';
import { loadCatalogue, type Catalogue } from '../support/orders';
import { createTestApp, type TestApp } from '../support/testApp';

/** The archive itself: which tables it covers, a consistent snapshot under load, and loading into another database. */
let t: TestApp;
let cat: Catalogue;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', INGEST_RATE_LIMIT_PER_MINUTE: '100000' });
  cat = await loadCatalogue(t.app);
});
afterAll(() => t.close());

const tenantOf = async (app: TestApp['app'], deploymentId: string) => {
  const [tenant] = await app.database.rows<{ id: string }>(`select id from analytics_tenants where deployment_id = '${deploymentId}'`);
  if (!tenant) throw new Error('no tenant');
  return tenant.id;
};
const partRows = (archive: VerifiedArchive, table: string) =>
  readFileSync(archive.partPath(table), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const BACKUP_ID = '00000000-0000-4000-8000-0000000000b1';

describe('a tenant archive', () => {
  it('covers every analytics table of the schema', () => {
    const tables = Object.values(schema as Record<string, unknown>)
      .filter((v): v is PgTable => is(v, PgTable))
      .map((table) => getTableConfig(table).name)
      .filter((name) => name.startsWith('analytics_'));
    expect(TENANT_TABLES.map((s) => s.table).sort()).toEqual(tables.sort());
  });

  it('is one snapshot: requests arriving during the backup are wholly in it or wholly after it', { timeout: 60_000 }, async () => {
    const server = await analyticsServer(t.app, cat, 'archive-load@example.com');
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie);
    const tenantId = await tenantOf(t.app, server.deploymentId);
    // Each request its own (the same request again would be taken for an SDK's retry and counted once).
    const send = (i: number) => hit(t.app, { app_key: app.key, device_id: `d${i % 40}`, timestamp: String(Date.now() + i), events: [{ key: 'click', count: 1 }, { key: 'click', count: 2 }] });
    for (let i = 0; i < 50; i += 1) await send(i);
    // 300 more requests while the backup reads.
    const sending = Promise.all(Array.from({ length: 300 }, (_, i) => send(1000 + i)));
    const written = await writeTenantArchive(t.app.database.db, { tenantId, deploymentId: server.deploymentId, backupId: BACKUP_ID }, t.app.database.snapshot);
    await sending;
    const archive = await readTenantArchive(createReadStream(written.file), { deploymentId: server.deploymentId, sha256: written.sha256, sizeBytes: written.sizeBytes });
    // Each request writes its raw row and its totals in one transaction: in a consistent copy they agree.
    const raw = partRows(archive, 'analytics_raw_requests').flatMap((r) => r.events as { key: string; count: number }[]);
    const totals = partRows(archive, 'analytics_daily_events').filter((r) => r.event_key === 'click' && r.segment === '');
    expect(totals.reduce((n, r) => n + Number(r.count), 0)).toBe(raw.reduce((n, e) => n + e.count, 0));
    expect(raw.length).toBeGreaterThanOrEqual(100);
    expect(written.manifest.tables.find((p) => p.table === 'analytics_raw_requests')?.rows).toBe(raw.length / 2);
    await discard(archive.dir);
    await discard(written.dir);
  });

  it('loads into a tenant of another database: the data comes over, references to users that do not exist there do not', { timeout: 60_000 }, async () => {
    const server = await analyticsServer(t.app, cat, 'archive-move@example.com');
    const app = await createAnalyticsApp(t.app, server.deploymentId, server.owner.cookie, { name: 'Moving app' });
    for (const device of ['m1', 'm2', 'm3']) await hit(t.app, { app_key: app.key, device_id: device, begin_session: '1', events: [{ key: 'moved', count: 3, sum: 1.5, segmentation: { from: 'a' } }] });
    const written = await writeTenantArchive(t.app.database.db, { tenantId: await tenantOf(t.app, server.deploymentId), deploymentId: server.deploymentId, backupId: BACKUP_ID }, t.app.database.snapshot);
    const archive = await readTenantArchive(createReadStream(written.file), {});

    const target = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
    try {
      const there = await analyticsServer(target.app, await loadCatalogue(target.app), 'archive-target@example.com');
      const targetTenant = await tenantOf(target.app, there.deploymentId);
      const loaded = await loadTenantArchive(target.app.database.db, archive, { tenantId: targetTenant });
      expect(loaded.analytics_apps).toBe(1);
      // The source's dashboard user is not a user of the target: left out, and what it made is no longer "by" anyone.
      expect(loaded.analytics_members).toBe(0);
      const [moved] = await target.app.database.rows<{ tenant_id: string; name: string; created_by: string | null }>(`select tenant_id, name, created_by from analytics_apps where id = '${app._id}'`);
      expect(moved).toEqual({ tenant_id: targetTenant, name: 'Moving app', created_by: null });
      const figures = (a: TestApp['app']) => a.database.rows(`select event_key, day, segment, value, count, sum from analytics_daily_events where app_id = '${app._id}' order by event_key, day, segment, value`);
      expect(await figures(target.app)).toEqual(await figures(t.app));
      expect(await figures(target.app)).toHaveLength(2);
      // The target's ingestion takes the moved app's key.
      expect((await hit(target.app, { app_key: app.key, device_id: 'm4', events: [{ key: 'moved', count: 1 }] })).json()).toEqual({ result: 'Success' });
    } finally {
      await target.close();
      await discard(archive.dir);
      await discard(written.dir);
    }
  });
});
