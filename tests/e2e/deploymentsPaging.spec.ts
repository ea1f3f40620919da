import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

/**
 * Portal side: a company with more servers than a page shows them a page at a time,
 * asked of the server (range, sort, filter), on the deployments table and the dashboard's cards.
 */

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/deployments-paging';
const SERVERS = 14;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** Orders `count` paid servers (left awaiting payment), named Paging 01, Paging 02, … */
async function orderServers(request: APIRequestContext, a: { cid: string; pid: string }, count: number) {
  const plans = ((await (await request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await request.get('/api/v1/plans/configurables/public/gcp')).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> }).payload;
  const id = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id ?? '';
  for (let i = 1; i <= count; i += 1) {
    const res = await request.post('/api/v1/deployments', {
      headers: { 'idempotency-key': randomUUID() },
      data: {
        name: `Paging ${String(i).padStart(2, '0')}`,
        plan: id(plans, 'v3.mau_1_000_gcp.base'),
        paymentCycle: 'month',
        planConfig: { region: id(conf.regions, 'us-central1'), size: id(conf.sizes, 'mau_500'), features: [id(conf.features, 'domain.default')] },
        paymentVendor: 'paddle',
        company: a.cid,
        project: a.pid,
        provider: 'gcp',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

/** Nothing sticks out sideways. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test.describe('paged servers', () => {
  test('the deployments table and the dashboard cards page, sort and search on the server', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(SCREEN.wide);
    const email = `paging-${Date.now()}@e2e.example.com`;
    expect((await page.request.post('/api/v1/users', { data: { firstName: 'Pia', lastName: 'Pager', email, password: PASSWORD } })).status()).toBe(201);
    const mail = await waitForMail(email, 'Verify');
    expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
    const company = ((await (await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Paging Co ${Date.now()}` } })).json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
    const a = { cid: company._id, pid: company.projects[0]?._id ?? '' };
    await orderServers(page.request, a, SERVERS);

    // Dashboard: twelve cards, the total, next shows the last two.
    await page.goto(`/#/c/${a.cid}/p/${a.pid}/dashboard`);
    await expect(page.getByTestId('server-card')).toHaveCount(12);
    await expect(page.getByTestId('server-cards-range')).toHaveText(`Showing 1 to 12 of ${SERVERS}`);
    await page.screenshot({ path: `${SHOTS}/dashboard-1440.png`, fullPage: true });
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByTestId('server-cards-range')).toHaveText(`Showing 13 to 14 of ${SERVERS}`);
    await expect(page.getByTestId('server-card')).toHaveCount(2);
    // Newest first: the last two pages hold the first servers ordered.
    await expect(page.getByRole('link', { name: 'Open Paging 01' })).toBeVisible();
    await page.setViewportSize(SCREEN.phone);
    await expectFits(page, SCREEN.phone.width);
    await page.screenshot({ path: `${SHOTS}/dashboard-page2-390.png`, fullPage: true });

    // Deployments table: a page of ten with the total, sorted by name, searched by the server.
    await page.setViewportSize(SCREEN.wide);
    await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
    const rows = page.getByTestId('deployment-row');
    await expect(rows).toHaveCount(10);
    await expect(page.getByText(`Showing 1 to 10 of ${SERVERS}`)).toBeVisible();
    await expect(rows.first()).toContainText('Paging 14');
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect(rows.first()).toContainText('Paging 01');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText(`Showing 11 to 14 of ${SERVERS}`)).toBeVisible();
    await expect(rows).toHaveCount(4);
    await expect(rows.first()).toContainText('Paging 11');
    await page.screenshot({ path: `${SHOTS}/deployments-page2-1440.png`, fullPage: true });
    await page.getByLabel('Search').fill('Paging 07');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Paging 07');
    await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();
    await page.setViewportSize(SCREEN.phone);
    await expectFits(page, SCREEN.phone.width);
    await page.screenshot({ path: `${SHOTS}/deployments-search-390.png`, fullPage: true });
  });
});
