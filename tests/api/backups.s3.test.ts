import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { createScheduledJobs } from '../../server/jobs/scheduled';
import type { BackupDto } from '../../src/domain/deployments/schemas';
import { createAnalyticsApp, hit } from '../support/analytics';
import { companyOwner, FREE, loadCatalogue, orderBody, postOrder, type Catalogue } from '../support/orders';
import { s3Settings, startFakeS3, type FakeS3 } from '../support/s3';
import { api, FAST_SERVERS, settledIn, until } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * The backup store as an S3-compatible bucket (a local S3 server the test starts): archives are
 * uploaded, downloaded, restored from, and deleted with their rows when retention or the restore
 * window ends; a terminated server comes back from its final backup.
 */
const DAY = 86_400_000;
let s3: FakeS3;
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
let clock = Date.now();
let jobs: ReturnType<typeof createScheduledJobs>;

beforeAll(async () => {
  s3 = await startFakeS3();
  // No grace period: a deletion terminates at once, with its final backup.
  t = await createTestApp({ ...FAST_SERVERS, ...s3Settings(s3), DELETION_GRACE_SECONDS: '0' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'backup-s3-owner@example.com');
  const { app } = t;
  jobs = createScheduledJobs({ services: app.schedules, config: app.config, providers: app.providers, payments: app.payments.gateway, health: app.serverHealth, mailing: { mailer: app.mailer, t: createI18n(app.config.PRODUCT_NAME).t, publicUrl: app.config.publicUrl }, log: app.log, now: () => new Date(clock) });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const objectKey = (deploymentId: string, backupId: string) => `tenants/${deploymentId}/${backupId}.tar.gz`;
const backupsOf = async (id: string) => (await api(t.app, owner.cookie, 'GET', `/deployments/${id}/backups`)).json<{ payload: BackupDto[] }>().payload;
const eventCount = async (appId: string) => (await t.app.database.rows<{ n: number }>(`select coalesce(sum(count), 0)::float as n from analytics_daily_events where app_id = '${appId}' and segment = ''`))[0]?.n ?? 0;

describe('backups in an S3-compatible bucket', () => {
  let id = '';
  let appId = '';

  it('uploads the archive, downloads it through the signed link and restores from it', { timeout: 60_000 }, async () => {
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'S3 Shop' }));
    id = res.json().payload._id as string;
    await settledIn(t.app, owner.cookie, id, 'running');
    expect((await api(t.app, owner.cookie, 'POST', `/analytics/${id}/open`, {})).statusCode).toBe(200);
    const app = await createAnalyticsApp(t.app, id, owner.cookie, { name: 'S3 app' });
    appId = app._id;
    for (const device of ['a', 'b', 'c']) expect((await hit(t.app, { app_key: app.key, device_id: device, begin_session: '1', events: [{ key: 'buy', count: 1 }] })).json()).toEqual({ result: 'Success' });

    expect((await api(t.app, owner.cookie, 'POST', `/deployments/${id}/backups`, {})).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, id, 'running');
    const [backup] = await backupsOf(id);
    expect(backup?.status).toBe('completed');
    const stored = s3.objects.get(objectKey(id, backup?._id ?? ''));
    expect(stored?.length).toBe(backup?.sizeBytes);

    const link = (await api(t.app, owner.cookie, 'POST', `/deployments/${id}/backups/${backup?._id}/download`, {})).json<{ payload: { url: string } }>().payload;
    const download = await t.app.inject({ method: 'GET', url: link.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(stored as Buffer)).toBe(true);

    expect((await hit(t.app, { app_key: app.key, device_id: 'd', events: [{ key: 'buy', count: 5 }] })).json()).toEqual({ result: 'Success' });
    expect(await eventCount(appId)).toBe(8);
    expect((await api(t.app, owner.cookie, 'POST', `/deployments/${id}/restore`, { backupId: backup?._id })).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, id, 'running');
    expect(await eventCount(appId)).toBe(3);
    expect(s3.calls.some((c) => c.startsWith('GET /beacon-backups/tenants/'))).toBe(true);
  });

  it('deletes scheduled backups past the option’s retention, archive with row', { timeout: 60_000 }, async () => {
    await jobs['nightly-backups']();
    await until(async () => (await backupsOf(id)).some((b) => b.kind === 'nightly' && b.status === 'completed'), 30_000, 'the nightly backup');
    const nightly = (await backupsOf(id)).find((b) => b.kind === 'nightly') as BackupDto;
    expect(s3.objects.has(objectKey(id, nightly._id))).toBe(true);

    // Eight days later (the daily option keeps seven), the next run removes it.
    clock += 8 * DAY;
    await jobs['nightly-backups']();
    await until(async () => (await backupsOf(id)).every((b) => b.status !== 'pending'), 30_000, 'the next nightly backup');
    expect((await backupsOf(id)).some((b) => b._id === nightly._id)).toBe(false);
    expect(s3.objects.has(objectKey(id, nightly._id))).toBe(false);
    // The manual backup is the customer's to keep.
    expect((await backupsOf(id)).some((b) => b.kind === 'manual')).toBe(true);
  });

  it('brings a terminated server back from its final backup, and removes every archive when the window closes', { timeout: 90_000 }, async () => {
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${id}`)).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, id, 'deleted');
    const final = (await backupsOf(id)).find((b) => b.kind === 'final') as BackupDto;
    expect(final.status).toBe('completed');
    expect(s3.objects.get(objectKey(id, final._id))?.length).toBe(final.sizeBytes);

    // Whatever happened to the data since, the restore brings back the data as it was at deletion.
    await t.app.database.rows(`delete from analytics_daily_events where app_id = '${appId}'`);
    expect(await eventCount(appId)).toBe(0);
    expect((await api(t.app, owner.cookie, 'POST', `/deployments/${id}/restore`, {})).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, id, 'running');
    expect(await eventCount(appId)).toBe(3);

    // Deleted again; then the restore window closes.
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${id}`)).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, id, 'deleted');
    await t.app.database.rows(`update deployment_runtime set restorable_until = now() - interval '1 minute' where deployment_id = '${id}'`);
    clock = Date.now();
    await jobs.terminations();
    expect(await backupsOf(id)).toEqual([]);
    expect([...s3.objects.keys()].filter((k) => k.includes(id))).toEqual([]);
    expect(await t.app.database.rows(`select id from analytics_tenants where deployment_id = '${id}'`)).toEqual([]);
  });
});
