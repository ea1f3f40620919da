import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { asAdmin } from './adminPages';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/backups';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** A verified customer with a company, signed in in `page`. */
async function newAccount(page: Page) {
  const email = `backups-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Backups Co ${Date.now()}` } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/** A Starter server with the backup option given, ordered and paid with the stand-in's test card. */
async function paidServer(request: APIRequestContext, a: { cid: string; pid: string }, name: string, backup: string) {
  const plans = ((await (await request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await request.get('/api/v1/plans/configurables/public/gcp')).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> }).payload;
  const id = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id ?? '';
  const res = await request.post('/api/v1/deployments', {
    headers: { 'idempotency-key': randomUUID() },
    data: {
      name,
      plan: id(plans, 'v3.mau_1_000_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: id(conf.regions, 'us-central1'), size: id(conf.sizes, 'mau_500'), features: [id(conf.features, 'domain.default'), id(conf.features, 'retention.6m'), id(conf.features, backup)] },
      paymentVendor: 'paddle',
      company: a.cid,
      project: a.pid,
      provider: 'gcp',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const server = ((await res.json()) as { payload: { _id: string } }).payload._id;
  expect((await request.post(`/api/v1/payments/checkout/${server}/pay`, { data: { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/deployments/${server}/populated`)).json()) as { payload: { status: string } }).payload.status, { timeout: 40_000 })
    .toBe('running');
  return server;
}

test.describe('scheduled backups', () => {
  test('an hourly server lists its hourly backup, a daily one its daily backup', async ({ page, browser }) => {
    const a = await newAccount(page);
    const hourly = await paidServer(page.request, a, 'Hourly Server', 'backup.hourly');
    const daily = await paidServer(page.request, a, 'Daily Server', 'backup.daily');

    // The backup schedule runs now (the platform admin's "Run now"), as it does every hour.
    const ops = await browser.newContext({ baseURL: process.env.BASE_URL });
    const admin = await ops.newPage();
    await asAdmin(admin);
    expect((await admin.request.post('/api/v1/admin/jobs/nightly-backups/run', { data: {} })).ok()).toBe(true);
    await ops.close();

    for (const [id, kind, name] of [[hourly, 'Hourly', 'hourly'], [daily, 'Daily', 'daily']] as const) {
      await page.setViewportSize(SCREEN.wide);
      await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments/${id}`);
      const panel = page.getByTestId('backups-panel');
      // The page polls while a task runs; reloading until the backup is done is what a user would do.
      await expect(async () => {
        await page.reload();
        await expect(panel.getByTestId('backup').first()).toContainText('Completed', { timeout: 2_000 });
      }).toPass({ timeout: 40_000 });
      await expect(panel.getByTestId('backup')).toHaveCount(1);
      await expect(panel.getByTestId('backup').first()).toContainText(kind);
      // The timeline folds the day's scheduled backups into one line, which opens onto their events.
      const folded = page.getByTestId('timeline-panel').getByTestId('timeline-backups');
      await expect(folded).toHaveCount(1);
      await expect(folded).toContainText(`1 ${name} backup`);
      await folded.getByRole('button', { name: 'Show' }).click();
      await expect(folded.getByTestId('timeline-event').filter({ hasText: 'Backup completed' })).toHaveCount(1);
      await page.getByTestId('timeline-panel').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/${name}-timeline-1440.png`, fullPage: true });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
      await page.setViewportSize(SCREEN.phone);
      await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
    }
  });
});
