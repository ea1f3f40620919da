import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Countly from 'countly-sdk-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_TABLES, tenantRowsSql } from '../../server/backups/tenantTables';
import type { BackupDto } from '../../src/domain/deployments/schemas';
import { auditRows } from '../support/admin';
import { createAnalyticsApp, dashboard } from '../support/analytics';
import { freePort } from '../support/net';
import { addMember, companyOwner, FREE, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, settledIn, until } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * Backups hold the server's analytics data and a restore brings it back exactly. Events arrive
 * through the official Countly Node SDK; the figures compared are the dashboard's answers and
 * every row of the tenant's tables (raw request ids aside, which the target numbers itself).
 */
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let url = '';
const storage = mkdtempSync(join(tmpdir(), 'countly-backup-'));

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, TASK_MAX_ATTEMPTS: '2' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'backup-data-owner@example.com');
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await t.close();
  rmSync(storage, { recursive: true, force: true });
});

async function backedUpServer(name: string) {
  const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.6m'), cat.feature('backup.daily')] };
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name, planConfig }));
  expect(res.statusCode).toBe(201);
  const id = res.json().payload._id as string;
  await settledIn(t.app, owner.cookie, id, 'running');
  const opened = await api(t.app, owner.cookie, 'POST', `/analytics/${id}/open`, {});
  expect(opened.statusCode).toBe(200);
  return id;
}

/** Events of several users through the SDK's bulk sender, waited for until stored. */
async function send(appKey: string, users: string[], key: string, expected: () => Promise<boolean>) {
  const bulk = new Countly.Bulk({ app_key: appKey, url, storage_path: join(storage, `${appKey}-${key}`), storage_type: 'memory', interval: 50, fail_timeout: 1 });
  for (const id of users) bulk.add_user({ device_id: id }).begin_session({ _os: 'Linux' }).add_event({ key, count: 2, sum: 4.5, dur: 3, segmentation: { plan: id.endsWith('1') ? 'pro' : 'free' } }).add_event({ key: '[CLY]_view', count: 1, segmentation: { name: 'Home', visit: '1' } });
  await new Promise<void>((resolve) => bulk.start(resolve));
  await until(expected, 30_000, `events ${key} stored`);
  bulk.stop();
}

const tenantOf = async (id: string) => (await t.app.database.rows<{ id: string }>(`select id from analytics_tenants where deployment_id = '${id}'`))[0]?.id ?? '';

/** Every row of the tenant, table by table, in key order: what "exactly as it was" means. */
async function tenantRows(id: string) {
  const tenant = await tenantOf(id);
  const out: Record<string, unknown[]> = {};
  for (const spec of TENANT_TABLES) {
    const rows = await t.app.database.rows<{ r: Record<string, unknown> }>(`select row_to_json(x) as r from ${tenantRowsSql(spec, tenant)} order by ${spec.orderBy.map((c) => `x.${c}`).join(', ')}`);
    out[spec.table] = rows.map(({ r }) => {
      if (spec.skip?.includes('id')) delete r.id;
      return r;
    });
  }
  return out;
}

/** What the dashboard shows for each app: event totals, sessions and views over the period. */
async function figures(id: string) {
  const call = dashboard(t.app, id);
  const apps = (await call('GET', '/apps', { cookie: owner.cookie })).json<{ payload: { _id: string; name: string }[] }>().payload;
  const day = new Date().toISOString().slice(0, 10);
  const period = `from=2026-01-01&to=${day}`;
  const out: Record<string, unknown> = {};
  for (const app of apps) {
    const base = `/apps/${app._id}`;
    out[app.name] = {
      events: (await call('GET', `${base}/events?${period}`, { cookie: owner.cookie })).json().payload,
      sessions: (await call('GET', `${base}/sessions?${period}`, { cookie: owner.cookie })).json().payload,
      views: (await call('GET', `${base}/views?${period}`, { cookie: owner.cookie })).json().payload,
    };
  }
  out.tokens = (await call('GET', '/tokens', { cookie: owner.cookie })).json().payload;
  return out;
}

const backupsOf = async (id: string) => (await api(t.app, owner.cookie, 'GET', `/deployments/${id}/backups`)).json<{ payload: BackupDto[] }>().payload;

async function backUpNow(id: string): Promise<BackupDto> {
  const res = await api(t.app, owner.cookie, 'POST', `/deployments/${id}/backups`, {});
  expect(res.statusCode, res.body).toBe(200);
  await settledIn(t.app, owner.cookie, id, 'running');
  const [latest] = await backupsOf(id);
  expect(latest?.status).toBe('completed');
  return latest as BackupDto;
}

async function restoreFrom(id: string, backupId: string, status = 'running') {
  const res = await api(t.app, owner.cookie, 'POST', `/deployments/${id}/restore`, { backupId });
  expect(res.statusCode, res.body).toBe(200);
  return settledIn(t.app, owner.cookie, id, status);
}

describe('a backup holds the analytics data; a restore brings it back exactly', () => {
  let id = '';
  let shop = { _id: '', key: '' };
  let blog = { _id: '', key: '' };
  let taken: BackupDto;
  let atBackup: { rows: Record<string, unknown[]>; figures: Record<string, unknown> };

  it('backs up a server whose SDKs sent data: the archive is real, its size shown', { timeout: 90_000 }, async () => {
    id = await backedUpServer('Backed Up Shop');
    shop = await createAnalyticsApp(t.app, id, owner.cookie, { name: 'Shop' });
    blog = await createAnalyticsApp(t.app, id, owner.cookie, { name: 'Blog' });
    const tokens = await dashboard(t.app, id)('POST', '/tokens', { cookie: owner.cookie }, { purpose: 'export script', allApps: true, neverExpires: true });
    expect(tokens.statusCode).toBe(201);
    const count = async (appId: string, key: string) => (await t.app.database.rows<{ n: number }>(`select coalesce(sum(count), 0)::float as n from analytics_daily_events where app_id = '${appId}' and event_key = '${key}' and segment = ''`))[0]?.n ?? 0;
    await send(shop.key, ['s1', 's2', 's3'], 'purchase', async () => (await count(shop._id, 'purchase')) >= 6);
    await send(blog.key, ['b1', 'b2'], 'read', async () => (await count(blog._id, 'read')) >= 4);

    atBackup = { rows: await tenantRows(id), figures: await figures(id) };
    taken = await backUpNow(id);
    expect(taken.kind).toBe('manual');
    expect(taken.restorable).toBe(true);
    expect(taken.takenAt).not.toBeNull();
    // The size shown is the archive's, as stored.
    const [file] = readdirSync(join(t.config.DATA_DIR, 'backups', id));
    expect(taken.sizeBytes).toBe(readFileSync(join(t.config.DATA_DIR, 'backups', id, file as string)).length);
    expect(taken.sizeBytes).toBeGreaterThan(500);
  });

  it('restores after an app is deleted, another cleared and more data sent: every figure as at the backup', { timeout: 90_000 }, async () => {
    const call = dashboard(t.app, id);
    expect((await call('DELETE', `/apps/${blog._id}`, { cookie: owner.cookie })).statusCode).toBe(200);
    expect((await call('POST', `/apps/${shop._id}/clear`, { cookie: owner.cookie }, { period: 'all' })).statusCode).toBe(200);
    // More data after the backup, as an SDK sends it.
    const late = await t.app.inject({ method: 'GET', url: `/i?app_key=${shop.key}&device_id=s4&begin_session=1&events=${encodeURIComponent(JSON.stringify([{ key: 'late', count: 2 }]))}` });
    expect(late.json()).toEqual({ result: 'Success' });
    expect(await figures(id)).not.toEqual(atBackup.figures);

    await restoreFrom(id, taken._id);
    expect(await figures(id)).toEqual(atBackup.figures);
    expect(await tenantRows(id)).toEqual(atBackup.rows);
    // The SDK key of the deleted app works again, and data sent now lands on top of the backup.
    const res = await t.app.inject({ method: 'GET', url: `/i?app_key=${blog.key}&device_id=b9&begin_session=1` });
    expect(res.json()).toEqual({ result: 'Success' });
    const restored = (await auditRows(t.app, 'deployment.restore')).at(-1);
    expect(restored?.after).toMatchObject({ backupId: taken._id });
  });

  it('refuses a damaged, truncated or foreign archive and leaves the data exactly as it was', { timeout: 120_000 }, async () => {
    // Each refused restore is followed by a good one: start from the backup's data.
    await restoreFrom(id, taken._id);
    const before = await tenantRows(id);
    const dir = join(t.config.DATA_DIR, 'backups', id);
    const file = join(dir, `${taken._id}.tar.gz`);
    const good = readFileSync(file);
    const other = await backedUpServer('Another Shop');
    const foreign = await backUpNow(other);
    const foreignBytes = readFileSync(join(t.config.DATA_DIR, 'backups', other, `${foreign._id}.tar.gz`));

    // A part changed inside a valid gzip, with the archive's recorded checksum and size made to match: the part's own checksum refuses it.
    const tarBytes = gunzipSync(good);
    const at = tarBytes.indexOf(Buffer.from('"purchase"'));
    expect(at).toBeGreaterThan(0);
    tarBytes.write('"purchasf"', at);
    const tampered = gzipSync(tarBytes);
    const cases: { name: string; bytes: Buffer | null; fixRow: boolean; error: RegExp }[] = [
      { name: 'truncated', bytes: good.subarray(0, Math.floor(good.length / 2)), fixRow: false, error: /bytes|damaged|incomplete/ },
      { name: 'a flipped byte', bytes: Buffer.concat([good.subarray(0, 100), Buffer.from([(good[100] ?? 0) ^ 0xff]), good.subarray(101)]), fixRow: false, error: /checksum|damaged/ },
      { name: 'a changed part', bytes: tampered, fixRow: true, error: /does not match its checksum/ },
      { name: "another server's archive", bytes: foreignBytes, fixRow: true, error: /another server/ },
      { name: 'missing', bytes: null, fixRow: false, error: /missing from the backup store/ },
    ];
    for (const c of cases) {
      if (c.bytes) writeFileSync(file, c.bytes);
      else rmSync(file);
      if (c.fixRow) await t.app.database.rows(`update deployment_backups set sha256 = '${createHash('sha256').update(c.bytes as Buffer).digest('hex')}', size_bytes = ${(c.bytes as Buffer).length} where id = '${taken._id}'`);
      const res = await api(t.app, owner.cookie, 'POST', `/deployments/${id}/restore`, { backupId: taken._id });
      expect(res.statusCode, c.name).toBe(200);
      const d = await settledIn(t.app, owner.cookie, id, 'error_restoring');
      expect(d.latestTask?.status, c.name).toBe('failed');
      expect(d.latestTask?.lastError, c.name).toMatch(c.error);
      expect(await tenantRows(id), c.name).toEqual(before);
      // Put things back for the next case, then bring the server back with the good archive.
      writeFileSync(file, good);
      await t.app.database.rows(`update deployment_backups set sha256 = '${createHash('sha256').update(good).digest('hex')}', size_bytes = ${good.length} where id = '${taken._id}'`);
      await restoreFrom(id, taken._id);
    }
    expect(await tenantRows(id)).toEqual(before);
  });

  it('gives company admins a signed, expiring, audited download link; viewers get none', { timeout: 60_000 }, async () => {
    const viewer = await addMember(t.app, owner.companyId, 'backup-viewer@example.com', 'viewer');
    expect((await api(t.app, viewer, 'POST', `/deployments/${id}/backups/${taken._id}/download`, {})).statusCode).toBe(403);
    const res = await api(t.app, owner.cookie, 'POST', `/deployments/${id}/backups/${taken._id}/download`, {});
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<{ payload: { url: string; expiresAt: string } }>().payload;
    expect(new Date(link.expiresAt).getTime()).toBeGreaterThan(Date.now());
    // No session needed: the link is the authority.
    const download = await t.app.inject({ method: 'GET', url: link.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/attachment; filename="backed-up-shop-backup-.*\.tar\.gz"/);
    expect(download.rawPayload.equals(readFileSync(join(t.config.DATA_DIR, 'backups', id, `${taken._id}.tar.gz`)))).toBe(true);
    expect((await auditRows(t.app, 'deployment.backupDownload')).at(-1)?.after).toMatchObject({ backupId: taken._id });
    // Altered or expired links are refused.
    const altered = link.url.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 3600}`);
    expect((await t.app.inject({ method: 'GET', url: altered })).statusCode).toBe(403);
    const other = link.url.replace(/backup=[^&]+/, 'backup=00000000-0000-4000-8000-000000000000');
    expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(403);
  });

  it('refuses a manual backup to a server without a backup option, and names the reason', async () => {
    const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.6m')] };
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'No Backups', planConfig }));
    const plain = res.json().payload._id as string;
    await settledIn(t.app, owner.cookie, plain, 'running');
    const before = (await backupsOf(plain)).length;
    const refused = await api(t.app, owner.cookie, 'POST', `/deployments/${plain}/backups`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('BACKUPS_NOT_IN_PLAN');
    expect((await backupsOf(plain)).length).toBe(before);
  });
});
