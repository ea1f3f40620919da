import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { createScheduledJobs } from '../../server/jobs/scheduled';
import { companyOwner, FREE, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, settledIn, until } from '../support/servers';
import { createTestApp, type TestApp } from '../support/testApp';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;
// The simulated clock the backup schedule runs on; the app's own worker runs the backup tasks.
let clock = Date.now();
let jobs: ReturnType<typeof createScheduledJobs>;

beforeAll(async () => {
  t = await createTestApp(FAST_SERVERS);
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'backup-owner@example.com');
  const { app } = t;
  jobs = createScheduledJobs({ services: app.schedules, config: app.config, providers: app.providers, payments: app.payments.gateway, health: app.serverHealth, mailing: { mailer: app.mailer, t: createI18n(app.config.PRODUCT_NAME).t, publicUrl: app.config.publicUrl }, log: app.log, now: () => new Date(clock) });
});
afterAll(() => t.close());

async function server(name: string, backup: 'backup.daily' | 'backup.hourly') {
  const planCode = backup === 'backup.daily' ? FREE : STARTER;
  const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.6m'), cat.feature(backup)] };
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode, name, planConfig }));
  expect(res.statusCode).toBe(201);
  const id = res.json().payload._id as string;
  if (planCode !== FREE) expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
  return settledIn(t.app, owner.cookie, id, 'running');
}

type Listed = { kind: string; status: string; createdAt: string };
const backups = async (id: string) => (await api(t.app, owner.cookie, 'GET', `/deployments/${id}/backups`)).json<{ payload: Listed[] }>().payload;

/** Runs the schedule at the simulated time, then waits until every backup it queued is taken. */
async function runAt(ids: string[]) {
  await jobs['nightly-backups']();
  await until(async () => {
    const lists = await Promise.all(ids.map(backups));
    return lists.every((l) => l.every((b) => b.status === 'completed'));
  });
  // The backup row is completed with its archive, its task a moment later: the next run finds no task open.
  for (const id of ids) await settledIn(t.app, owner.cookie, id, 'running');
}

describe('scheduled backups, at the frequency the server’s option names', () => {
  // 30 runs of the schedule, each waiting for the worker to take its backups.
  it('takes an hourly server’s backup each hour and a daily one’s once a day, keeping them 7 days', { timeout: 180_000 }, async () => {
    const hourly = await server('Hourly Backups', 'backup.hourly');
    const daily = await server('Daily Backups', 'backup.daily');
    const ids = [hourly._id, daily._id];

    // 26 hours of simulated time, the schedule a few minutes late now and then as cron can be.
    for (let hour = 0; hour < 26; hour += 1) {
      await runAt(ids);
      clock += HOUR + (hour % 5 === 0 ? 3 * 60_000 : 0);
    }
    const hourlyList = await backups(hourly._id);
    expect(hourlyList).toHaveLength(26);
    expect(new Set(hourlyList.map((b) => `${b.kind}:${b.status}`))).toEqual(new Set(['hourly:completed']));
    // Newest first, an hour apart (or an hour and the lateness of that run).
    const gaps = hourlyList.slice(1).map((b, i) => Date.parse(hourlyList[i]?.createdAt ?? '') - Date.parse(b.createdAt));
    expect(gaps.every((g) => g >= HOUR && g <= HOUR + 3 * 60_000)).toBe(true);
    const dailyList = await backups(daily._id);
    expect(dailyList.map((b) => b.kind)).toEqual(['nightly', 'nightly']);

    // A second run in the same hour takes nothing more.
    await runAt(ids);
    await runAt(ids);
    expect(await backups(hourly._id)).toHaveLength(27);
    expect(await backups(daily._id)).toHaveLength(2);

    // Eight days on, the scheduled backups older than the plan's 7 days are gone; the new one is taken.
    clock += 8 * DAY;
    await runAt(ids);
    const kept = await backups(hourly._id);
    expect(kept).toHaveLength(1);
    expect(Date.parse(kept[0]?.createdAt ?? '')).toBe(clock);
    expect(await backups(daily._id)).toHaveLength(1);
  });

  it('takes none for a server without a backup option', async () => {
    const planConfig = { region: cat.region('us-central1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.6m')] };
    const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: FREE, name: 'No Backups', planConfig }));
    expect(res.statusCode).toBe(201);
    const id = res.json().payload._id as string;
    const none = await settledIn(t.app, owner.cookie, id, 'running');
    expect(none.backupsEnabled).toBe(false);
    clock += DAY;
    await runAt([id]);
    expect(await backups(id)).toEqual([]);
  });
});
