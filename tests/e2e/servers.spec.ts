import type { Page } from '@playwright/test';
import { expect, SCREEN, test } from './fixtures';
import { publishDns } from './dns';
import { waitForMail } from './mailbox';

/**
 * A free server is ordered and watched from initializing to
 * running on its page; it is restarted, health-checked, given a domain that is verified and has
 * its SSL removed; deleted and the deletion cancelled; deleted again until the (shortened) grace
 * period passes, then restored; and a provider failure shows the spec's message. globalSetup
 * shortens the mock cloud's boot time and the grace period, and makes user unlocks fail.
 */

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/servers';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

interface Account {
  cid: string;
  pid: string;
}

async function newAccount(page: Page, tag: string): Promise<Account> {
  const email = newEmail(tag);
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Company ${tag}` } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/**
 * A custom domain is a paid option: the server's options change to Starter with it, paid with the
 * stand-in's test card, and the server is resized; then the page is read afresh.
 */
async function upgradeToCustomDomain(page: Page, id: string) {
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const starter = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === 'v3.mau_1_000_gcp.base');
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const change = { plan: starter?._id, paymentCycle: 'month', paymentVendor: 'paddle', planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, features: [f('domain.custom'), f('retention.6m'), f('backup.daily')] } };
  expect((await page.request.put(`/api/v1/deployments/${id}`, { data: change })).ok()).toBe(true);
  expect((await page.request.post(`/api/v1/payments/checkout/${id}/pay`, { data: { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  await expect
    .poll(async () => {
      const view = ((await (await page.request.get(`/api/v1/deployments/${id}/populated`)).json()) as { payload: { status: string; plan: { code: string }; latestTask: { type: string; status: string } | null } }).payload;
      return `${view.plan.code} ${view.status} ${view.latestTask?.type} ${view.latestTask?.status}`;
    }, { timeout: 30_000 })
    .toBe('v3.mau_1_000_gcp.base running modify completed');
  await page.reload();
}

const next = (page: Page) => page.getByTestId('wizard-footer').getByRole('button', { name: /^(Next|Continue)$/ });
const status = (page: Page) => page.getByTestId('status-panel').getByTestId('deployment-status');

/** Clicks an action and confirms it in its dialog. */
async function act(page: Page, panel: string, button: string | RegExp, confirm = button) {
  await page.getByTestId(panel).getByRole('button', { name: button, exact: typeof button === 'string' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: confirm, exact: typeof confirm === 'string' }).click();
  await expect(dialog).toHaveCount(0);
}

/** Nothing sticks out sideways. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function orderFreeServer(page: Page, a: Account, name: string) {
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
  await page.getByRole('link', { name: 'Create server' }).click();
  await page.getByRole('button', { name: /^Free \d/ }).click();
  for (const step of ['choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
    await next(page).click();
    await expect(page).toHaveURL(new RegExp(step));
  }
  await page.getByLabel('Server name').fill(name);
  await next(page).click();
  await expect(page).toHaveURL(/server-builder\/success/);
  await page.getByRole('link', { name: 'Go to deployments' }).click();
  await page.getByTestId('deployment-row').getByRole('link', { name }).click();
  await expect(page).toHaveURL(/deployments\/[0-9a-f-]{36}$/);
}

test.describe('running servers', () => {
  test('order, watch, restart, health check, domain and SSL, delete and cancel, delete and restore, a provider failure', async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize(SCREEN.wide);
    const a = await newAccount(page, 'srv');
    await orderFreeServer(page, a, 'Journey Server');
    await expect(page.getByRole('heading', { name: 'Journey Server' })).toBeVisible();

    // initializing (with the provisioning progress) → running
    await expect(status(page)).toHaveAttribute('data-status', 'initializing', { timeout: 15_000 });
    await expect(page.getByTestId('task-progress').first()).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-status', 'running', { timeout: 30_000 });

    // restart → restarting → running
    await act(page, 'actions-panel', 'Restart');
    await expect(status(page)).toHaveAttribute('data-status', 'restarting', { timeout: 10_000 });
    await expect(status(page)).toHaveAttribute('data-status', 'running', { timeout: 30_000 });

    // health check
    await act(page, 'actions-panel', 'Health check');
    await expect(page.getByTestId('timeline-event').filter({ hasText: 'Health check completed' }).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('health-state')).toContainText('Healthy');

    // a custom domain (a paid option): the DNS records to add, verified against DNS, then SSL removed
    await upgradeToCustomDomain(page, page.url().split('/').pop() ?? '');
    await expect(status(page)).toHaveAttribute('data-status', 'running', { timeout: 15_000 });
    await page.getByTestId('domain-panel').getByLabel('Custom domain').fill('analytics.journey-e2e.com');
    await page.getByTestId('domain-panel').getByRole('button', { name: 'Set domain' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Set domain' }).click();
    await expect(page.getByTestId('domain-name')).toContainText('analytics.journey-e2e.com', { timeout: 20_000 });
    await expect(page.getByTestId('dns-record')).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-status', 'running');
    await expect(page.getByTestId('task-progress')).toHaveCount(0, { timeout: 20_000 });
    // Verified before the records are published: refused, saying what DNS has and what it should.
    await act(page, 'domain-panel', 'Verify domain');
    await expect(page.getByTestId('dns-check')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('dns-findings')).toContainText('TXT _beacon-verify.analytics.journey-e2e.com: found nothing; expected "beacon-verify=');
    await expect(page.getByTestId('task-progress')).toHaveCount(0, { timeout: 20_000 });
    for (const size of [SCREEN.phone, SCREEN.wide]) {
      await page.setViewportSize(size);
      await expectFits(page, size.width);
      await page.getByTestId('domain-panel').screenshot({ path: `${SHOTS}/${size === SCREEN.wide ? 'wide' : 'phone'}-domain-records.png`, animations: 'disabled' });
    }
    // Published as the page says: verified.
    const serverId = page.url().split('/').pop() ?? '';
    const records = ((await (await page.request.get(`/api/v1/deployments/${serverId}/populated`)).json()) as { payload: { domain: { verification: { type: 'TXT' | 'CNAME'; host: string; value: string }[] } } }).payload.domain.verification;
    expect(records.map((r) => r.type)).toEqual(['TXT', 'CNAME']);
    publishDns(records);
    await act(page, 'domain-panel', 'Verify domain');
    await expect(page.getByTestId('domain-verified')).toHaveText('Verified', { timeout: 20_000 });
    await expect(page.getByTestId('dns-check')).toHaveCount(0);
    // The certificate as the edge serves it: this product runs without an edge here, and says so.
    await expect(page.getByTestId('certificate-state')).toHaveAttribute('data-state', 'no_edge', { timeout: 20_000 });
    await expect(page.getByTestId('task-progress')).toHaveCount(0, { timeout: 20_000 });
    await act(page, 'domain-panel', 'Remove SSL');
    await expect(page.getByTestId('certificate-state')).toHaveAttribute('data-state', 'plain_http', { timeout: 20_000 });
    await expect(page.getByTestId('task-progress')).toHaveCount(0, { timeout: 20_000 });

    // delete → termination scheduled (the grace period told) → cancel
    await page.getByTestId('actions-panel').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('alertdialog')).toContainText('grace period of 20 seconds');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByTestId('termination-notice')).toBeVisible();
    await act(page, 'actions-panel', 'Cancel deletion');
    await expect(page.getByTestId('termination-notice')).toHaveCount(0);
    await expect(status(page)).toHaveAttribute('data-status', 'running');

    // delete again: after the grace period it is deleted, and restored within the window
    await act(page, 'actions-panel', 'Delete');
    await expect(page.getByTestId('termination-notice')).toBeVisible();
    await expect(status(page)).toHaveAttribute('data-status', 'deleted', { timeout: 150_000 });
    await expect(page.getByTestId('restorable-notice')).toBeVisible();
    await act(page, 'actions-panel', 'Restore');
    await expect(status(page)).toHaveAttribute('data-status', /restoring|running/, { timeout: 20_000 });
    await expect(status(page)).toHaveAttribute('data-status', 'running', { timeout: 60_000 });

    // a provider failure: the mock cloud refuses user unlocks
    await act(page, 'actions-panel', 'Unlock users');
    await expect(page.getByTestId('server-problem')).toContainText('User unlock failed. Please contact support.', { timeout: 30_000 });
    await expect(page.getByTestId('timeline-event').filter({ hasText: 'User unlock failed' }).first()).toBeVisible();

    // Open dashboard: a signed sign-in link, opened through /redirect, lands on the server's own analytics dashboard
    await page.getByRole('button', { name: 'Open dashboard' }).click();
    await expect(page).toHaveURL(/#\/analytics\/[^/?]+\/events\/overview/, { timeout: 15_000 });
    await expect(page.getByText('No application yet')).toBeVisible({ timeout: 15_000 });
  });

  test('screens at 390 px and 1440 px: dashboard, deployments, a server, projects', async ({ page }) => {
    const a = await newAccount(page, 'srvshots');
    await orderFreeServer(page, a, 'Screens Server');
    await expect(status(page)).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
    const serverUrl = page.url();
    for (const [label, size] of Object.entries(SCREEN)) {
      await page.setViewportSize(size);
      await page.goto(serverUrl);
      await expect(page.getByTestId('plan-panel')).toBeVisible();
      await page.getByRole('button', { name: 'Show MAU history' }).click();
      await expect(page.getByText(/No history yet|Monthly active users per month/).first()).toBeVisible();
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-server.png`, fullPage: true, animations: 'disabled' });
      await page.goto(`/#/c/${a.cid}/p/${a.pid}/dashboard`);
      await expect(page.getByTestId('server-card')).toBeVisible();
      await expect(page.getByTestId('welcome-block').getByRole('link', { name: 'Book a 30-minute call' })).toHaveAttribute('href', 'https://calendar.example.com/beacon/30-minutes');
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-dashboard.png`, fullPage: true, animations: 'disabled' });
      await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
      await expect(page.getByTestId('deployment-row')).toBeVisible();
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-deployments.png`, fullPage: true, animations: 'disabled' });
      await page.goto(`/#/c/${a.cid}/p/${a.pid}/management/project`);
      await expect(page.getByRole('cell', { name: /^Default project/ })).toBeVisible();
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-projects.png`, fullPage: true, animations: 'disabled' });
    }
  });

  test('Management › Project: create, rename (the switcher follows), delete', async ({ page }) => {
    const a = await newAccount(page, 'proj');
    await page.goto(`/#/c/${a.cid}/p/${a.pid}/management/project`);
    await page.getByLabel('Project name').fill('Mobile apps');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.getByRole('cell', { name: 'Mobile apps', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Rename Mobile apps' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename project' });
    await rename.getByLabel('Project name').fill('Web apps');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('cell', { name: 'Web apps', exact: true })).toBeVisible();
    // The user menu lists the new project for switching.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByTestId('project-option').filter({ hasText: 'Web apps' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Delete Web apps' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete project' }).click();
    await expect(page.getByRole('cell', { name: 'Web apps', exact: true })).toHaveCount(0);

    const order = await page.request.get(`/api/v1/companies/${a.cid}/projects`);
    expect(((await order.json()) as { payload: unknown[] }).payload).toHaveLength(1);
  });
});
