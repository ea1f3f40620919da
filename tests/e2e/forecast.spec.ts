import type { Page } from '@playwright/test';
import { freeServer } from './analyticsServer';
import { admin, expect, SCREEN, test } from './fixtures';

const SHOTS = 'test-results/screens/forecast';

async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/**
 * The MAU forecast in the browser: a free server (500 users) gets 520 devices through /i/bulk, the MAU
 * sampling runs (an admin's "run now"), and the customer sees the forecast on the server card and
 * page, the chart's forecast band and tier line, and the next tier priced under Billing.
 */
test('the MAU forecast on the card, the page and its chart, and the next tier under Billing', async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const id = await freeServer(page, 'Forecast');
  const server = ((await (await page.request.get(`/api/v1/deployments/${id}/populated`)).json()) as { payload: { company: string; project: string } }).payload;
  const scope = `/#/c/${server.company}/p/${server.project}`;
  const app = await page.request.post(`/api/v1/analytics/${id}/apps`, { data: { name: 'Forecast app' } });
  expect(app.status()).toBe(201);
  const appKey = ((await app.json()) as { payload: { key: string } }).payload.key;
  const requests = Array.from({ length: 520 }, (_, i) => ({ device_id: `forecast-device-${i}`, begin_session: '1' }));
  expect(await (await page.request.post('/i/bulk', { form: { app_key: appKey, requests: JSON.stringify(requests) } })).json()).toEqual({ result: 'Success' });

  // The sampling schedule, run now by a platform admin in their own session.
  const adminApi = await playwright.request.newContext({ baseURL });
  expect((await adminApi.post('/api/v1/auth/signin', { data: admin() })).ok()).toBe(true);
  expect((await adminApi.post('/api/v1/admin/jobs/mau-sampling/run', { data: {} })).ok()).toBe(true);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/deployments/${id}/populated`)).json()) as { payload: { mau: { forecast: { used: number } | null } } }).payload.mau.forecast?.used ?? null, { timeout: 60_000 })
    .toBe(520);
  await adminApi.dispose();

  for (const [label, size] of Object.entries(SCREEN)) {
    await page.setViewportSize(size);
    await page.goto(`${scope}/dashboard`);
    const card = page.getByTestId('server-card');
    await expect(card.getByTestId('mau-text')).toHaveText('520 of 500 monthly active users');
    await expect(card.getByTestId('mau-forecast')).toContainText(/^Forecast [\d,]+ by \w{3} \d+, \d{4} \(between [\d,]+ and [\d,]+\)$/);
    await expect(card.getByTestId('mau-run-out')).toContainText(/^Reached 500 on /);
    // The share used (520 of 500), not the 100% threshold it passed.
    await expect(card.getByTestId('mau-notice')).toHaveText('This server has used 104% of its tier: its data keeps flowing; a larger tier keeps it within the plan.');
    await expectFits(page, size.width);
    await card.screenshot({ path: `${SHOTS}/${label}-card.png`, animations: 'disabled' });

    await page.goto(`${scope}/deployments/${id}`);
    const panel = page.getByTestId('mau-panel');
    await expect(panel.getByTestId('past-tier-rule')).toHaveText(/^Past the tier, data keeps flowing and nothing is cut off/);
    await panel.getByRole('button', { name: 'Show MAU history' }).click();
    const chart = panel.getByTestId('mau-chart');
    await expect(chart).toHaveAttribute('aria-label', /this month is forecast at [\d,]+, between [\d,]+ and [\d,]+ \(the shaded band\)/);
    await expect(chart.locator('.recharts-reference-area')).toHaveCount(1);
    await expect(chart.locator('.recharts-reference-line')).toHaveCount(1);
    // The tooltip of the bar just clicked past would hide the band.
    await page.mouse.move(0, 0);
    await expectFits(page, size.width);
    await panel.screenshot({ path: `${SHOTS}/${label}-chart.png`, animations: 'disabled' });

    await page.goto(`${scope}/management/billing`);
    const usage = page.getByTestId('server-usage');
    await expect(usage).toContainText('Forecast Server');
    await expect(usage.getByTestId('projected-bill')).toContainText('Next bill $0.00 / month');
    await expect(usage.getByTestId('next-tier')).toContainText(/Next tier, .+ \(1,000 users\): \$[\d,]+\.\d{2} \/ month excl\. tax; \$[\d,]+\.\d{2} excl\. tax now \(prorated\)/);
    await expect(page.getByTestId('projected-total')).toHaveText('Projected next bills in total: $0.00 excl. tax');
    await expect(page.getByRole('switch', { name: 'When the forecast says the tier will run out' }).or(page.getByRole('checkbox', { name: 'When the forecast says the tier will run out' }))).toBeChecked();
    await expectFits(page, size.width);
    await page.screenshot({ path: `${SHOTS}/${label}-billing.png`, fullPage: true, animations: 'disabled' });
  }

  // The upgrade button opens the edit wizard on the next tier.
  await page.getByTestId('next-tier').getByRole('link', { name: /^Upgrade to / }).click();
  await expect(page).toHaveURL(new RegExp(`server-builder/${id}/choose-plan\\?plan=`));
  await expect(page.getByRole('button', { pressed: true }).filter({ hasText: 'monthly active users' })).toContainText(/1(,000|K) monthly active users/);
});
