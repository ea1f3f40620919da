import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { asAdmin } from './adminPages';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

/**
 * The screens a support person and a phone user meet, in plain words: the admin company page,
 * servers list and logs name plans, payments and targets as the customer sees them; at 390 px the
 * transactions, a server being deleted and the admin header are all on screen; the timeline names
 * the deletion's own date.
 */

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/plain-words';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

async function newAccount(page: Page, tag: string) {
  const email = `${tag}-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Paula', lastName: 'Plain', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const name = `Plain Co ${Date.now()}`;
  const company = ((await (await page.request.post('/api/v1/companies?onboarding=1', { data: { name } })).json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { name, cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/** A paid server on a plan, paid with the stand-in's test card and running. */
async function paidServer(request: APIRequestContext, a: { cid: string; pid: string }, name: string, planCode: string) {
  const plans = ((await (await request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await request.get('/api/v1/plans/configurables/public/gcp')).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> }).payload;
  const id = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id ?? '';
  const res = await request.post('/api/v1/deployments', {
    headers: { 'idempotency-key': randomUUID() },
    data: {
      name,
      plan: id(plans, planCode),
      paymentCycle: 'month',
      planConfig: { region: id(conf.regions, 'us-central1'), size: id(conf.sizes, 'mau_500'), features: [id(conf.features, 'domain.default'), id(conf.features, 'retention.6m'), id(conf.features, 'backup.daily')] },
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
    .poll(async () => ((await (await request.get(`/api/v1/deployments/${server}/populated`)).json()) as { payload: { status: string; latestTask: { status: string } | null } }).payload, { timeout: 40_000 })
    .toMatchObject({ status: 'running', latestTask: { status: 'completed' } });
  return server;
}

/** Both widths, for looking at; at 390 px the page never scrolls sideways. */
async function shots(page: Page, name: string, phoneReady?: (p: Page) => Promise<void>) {
  await page.setViewportSize(SCREEN.wide);
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await phoneReady?.(page);
  // From the top, so the sticky header is not drawn over the middle of a full-page shot.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.setViewportSize(SCREEN.wide);
}

/** Wholly within the screen's width as the page opens; `noScroll`: and nothing around it scrolls sideways. */
async function onScreen(locator: Locator, width: number, noScroll = false) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, 'in the layout').not.toBeNull();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width, `${await locator.textContent()} within ${width} px`).toBe(true);
  if (!noScroll) return;
  expect(await locator.evaluate((el) => {
    for (let p = el.parentElement; p; p = p.parentElement) if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible') return false;
    return true;
  }), `${await locator.textContent()} behind a sideways scroll`).toBe(true);
}

/** A table as wide as its box at most: nothing of it behind a sideways scroll. */
const fitsBox = (table: Locator) => table.evaluate((el) => (el.parentElement ? el.parentElement.scrollWidth - el.parentElement.clientWidth <= 1 : true));

test.describe('plain words and phone widths', () => {
  test('the customer sees a server being deleted, its timeline and every transaction at 390 px; support reads the same in plain words', async ({ page, browser }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(SCREEN.wide);
    const a = await newAccount(page, 'plain');
    await paidServer(page.request, a, 'Growth Server', 'v3.mau_10_000_gcp.base');
    const leaving = await paidServer(page.request, a, 'Leaving Server', 'v3.mau_1_000_gcp.base');
    expect((await page.request.delete(`/api/v1/deployments/${leaving}`)).ok()).toBe(true);
    const deletingOn = ((await (await page.request.get(`/api/v1/deployments/${leaving}/populated`)).json()) as { payload: { terminationScheduledAt: string } }).payload.terminationScheduledAt;
    const deletingText = `Deleting on ${day.format(new Date(deletingOn))}`;
    const scope = `/#/c/${a.cid}/p/${a.pid}`;

    // The servers list: the deletion's date, in the first columns, on a phone too.
    await page.goto(`${scope}/deployments`);
    const row = page.getByTestId('deployment-row').filter({ hasText: 'Leaving Server' });
    await expect(row.getByTestId('deleting-on')).toHaveText(deletingText);
    // Billing has stopped: the server's subscription is no longer called "Active".
    await expect(row.getByTestId('subscription-status')).toHaveCount(0);
    await expect(page.getByTestId('deployment-row').filter({ hasText: 'Growth Server' }).getByTestId('subscription-status')).toHaveText('Active');
    await shots(page, 'deployments', async (p) => onScreen(p.getByTestId('deployment-row').filter({ hasText: 'Leaving Server' }).getByTestId('deleting-on'), SCREEN.phone.width));

    // The timeline: the deletion's date on its line; the billing line beside it names no other date.
    await page.goto(`${scope}/deployments/${leaving}`);
    const timeline = page.getByTestId('timeline-panel');
    await expect(timeline.getByText(/^Deletion scheduled for /)).toBeVisible();
    await expect(timeline.getByText('Billing stopped: no further charge', { exact: true })).toBeVisible();
    await timeline.scrollIntoViewIfNeeded();
    await shots(page, 'timeline', async (p) => void (await p.getByTestId('timeline-panel').scrollIntoViewIfNeeded()));

    // Management › Billing at 390 px: every transaction's total and both documents on screen.
    await page.goto(`${scope}/management/billing`);
    await expect(page.getByTestId('transaction')).toHaveCount(2);
    await shots(page, 'billing', async (p) => {
      for (const tx of await p.getByTestId('transaction').all()) {
        await onScreen(tx.getByRole('cell').filter({ hasText: /^\$[\d,]+\.\d\d$/ }).first(), SCREEN.phone.width, true);
        await onScreen(tx.getByRole('link', { name: /Open invoice/ }), SCREEN.phone.width, true);
        await onScreen(tx.getByRole('link', { name: /receipt/i }).or(tx.getByRole('button', { name: /receipt/i })), SCREEN.phone.width, true);
      }
      await p.getByTestId('transaction').first().scrollIntoViewIfNeeded();
    });

    // Support's side.
    const ops = await browser.newContext({ baseURL: process.env.BASE_URL });
    const admin = await ops.newPage();
    await asAdmin(admin);

    // The company page: plans by name, the deletion, the test checkout, cycles and amounts in words.
    await admin.goto(`/#/admin/companies/${a.cid}`);
    const serversTable = admin.getByRole('table', { name: 'Servers' });
    await expect(serversTable.getByRole('row').filter({ hasText: 'Growth Server' })).toContainText('Growth');
    await expect(serversTable.getByRole('row').filter({ hasText: 'Leaving Server' })).toContainText(`Running · ${deletingText}`);
    const subscriptions = admin.getByRole('table', { name: 'Subscriptions' });
    const leavingSub = subscriptions.getByRole('row').filter({ hasText: 'Leaving Server' });
    await expect(leavingSub).toContainText(`${deletingText}; no further charge`);
    await expect(leavingSub).not.toContainText('Active');
    const growthSub = subscriptions.getByRole('row').filter({ hasText: 'Growth Server' });
    await expect(growthSub).toContainText('Active');
    await expect(growthSub).toContainText('Monthly');
    await expect(growthSub).toContainText(/\$[\d,]+\.\d\d \/ month/);
    await expect(growthSub).toContainText('Test checkout');
    const companyText = await admin.locator('main').innerText();
    expect(companyText).not.toMatch(/paddle|MAU · GCP|USD|\tmonth\t/);
    await shots(admin, 'admin-company');

    // The servers list: the plan as the customer sees it.
    await admin.goto('/#/admin/deployments');
    await admin.getByLabel('Search').fill(a.name);
    const growthRow = admin.getByRole('row').filter({ hasText: 'Growth Server' });
    await expect(growthRow).toContainText('Growth');
    await expect(growthRow).not.toContainText('MAU');
    await expect(admin.getByRole('row').filter({ hasText: 'Leaving Server' })).toContainText(deletingText);
    expect(await fitsBox(admin.getByRole('table').first()), 'the servers table scrolls sideways at 1440 px').toBe(true);
    await shots(admin, 'admin-servers');

    // The logs: targets and companies by name, no UUID, and the table within 1440 px.
    await admin.goto('/#/admin/logs');
    await admin.getByLabel('Search').fill('deployment.delete');
    const entry = admin.getByRole('row').filter({ hasText: 'Leaving Server' }).first();
    await expect(entry).toBeVisible();
    const table = admin.getByRole('table', { name: /./ }).first();
    expect(await table.innerText()).not.toMatch(UUID);
    await admin.getByLabel('Search').fill('');
    await expect(admin.getByRole('row').nth(5)).toBeVisible();
    expect(await admin.getByRole('table').first().innerText()).not.toMatch(UUID);
    expect(await fitsBox(admin.getByRole('table').first()), 'the logs table scrolls sideways at 1440 px').toBe(true);
    await shots(admin, 'admin-logs');

    // The admin header at 390 px: the product's navigation and the user menu whole on screen.
    await admin.setViewportSize(SCREEN.phone);
    for (const name of ['Dashboard', 'Deployments', 'Management']) await onScreen(admin.getByRole('banner').getByRole('navigation').getByRole('link', { name, exact: true }), SCREEN.phone.width, true);
    await onScreen(admin.getByRole('button', { name: /user menu|account/i }), SCREEN.phone.width);
    await ops.close();
  });
});
