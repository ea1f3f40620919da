import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { asAdmin } from './adminPages';
import { freeServer } from './analyticsServer';
import { expect, SCREEN, test } from './fixtures';

const SHOTS = 'test-results/screens/backups';

/** One SDK request to the server's ingestion, as an app sends it; answered once its data is written. */
async function send(page: Page, appKey: string, deviceId: string, events: { key: string; count: number }[]) {
  const res = await page.request.get('/i', { params: { app_key: appKey, device_id: deviceId, begin_session: '1', events: JSON.stringify(events) } });
  expect(await res.json()).toEqual({ result: 'Success' });
}

/** The events overview of the server's dashboard: its headline figures, as the customer reads them. */
async function expectFigures(page: Page, deploymentId: string, figures: { events: string; keys: string; newUsers: string }) {
  await page.goto(`/#/analytics/${deploymentId}/events/overview`);
  const figure = (label: string) => page.getByRole('region', { name: label, exact: true }).locator('p');
  await expect(figure('Events recorded')).toHaveText(figures.events);
  await expect(figure('Event keys')).toHaveText(figures.keys);
  await expect(figure('New users')).toHaveText(figures.newUsers);
}

async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/**
 * Backups for real: a customer's server with the daily backup option takes a backup now, gets
 * more data, is restored from the backup (the question says what is lost, with the backup's time)
 * and runs again with the backup's figures; the backup downloads as a .tar.gz archive.
 */
test('back up now, restore the backup and see the later data gone, download the archive', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(SCREEN.wide);
  const id = await freeServer(page, 'Backups');
  const server = ((await (await page.request.get(`/api/v1/deployments/${id}/populated`)).json()) as { payload: { company: string; project: string } }).payload;
  const serverPage = `/#/c/${server.company}/p/${server.project}/deployments/${id}`;
  const app = await page.request.post(`/api/v1/analytics/${id}/apps`, { data: { name: 'Lantern iOS' } });
  expect(app.status()).toBe(201);
  const appKey = ((await app.json()) as { payload: { key: string } }).payload.key;

  // Before the backup: one device, three purchases.
  await send(page, appKey, 'device-before', [{ key: 'purchase', count: 3 }]);
  await expectFigures(page, id, { events: '3', keys: '1', newUsers: '1' });

  // Back up now: shown in progress, then completed with its real size.
  await page.goto(serverPage);
  const panel = page.getByTestId('backups-panel');
  await expect(panel.getByText('No backups yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByText('Backup started. It appears here once it is complete.')).toBeVisible();
  const backup = panel.getByTestId('backup').first();
  await expect(backup).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(panel.getByTestId('backup')).toHaveCount(1);
  await expect(backup.getByTestId('backup-facts')).toHaveText(/^Manual · [\d.]+ (B|kB|MB)$/);
  await expect(panel.getByRole('button', { name: 'Back up now' })).toBeEnabled();
  const takenAt = (await backup.getByTestId('backup-time').textContent()) ?? '';
  expect(takenAt).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/);
  // A backup a person asked for keeps its own lines on the timeline (scheduled ones fold into one).
  await expect(page.getByTestId('timeline-panel').getByTestId('timeline-backups')).toHaveCount(0);
  await expect(page.getByTestId('timeline-event').filter({ hasText: 'Backup completed' })).toHaveCount(1);

  // After the backup: a second device, a new event key and more purchases.
  await send(page, appKey, 'device-after', [
    { key: 'purchase', count: 4 },
    { key: 'refund', count: 2 },
  ]);
  await expectFigures(page, id, { events: '9', keys: '2', newUsers: '2' });

  // Restore: the question names the backup's time and what goes.
  await page.goto(serverPage);
  const restore = panel.getByRole('button', { name: 'Restore this backup' });
  const lost = `Data received after ${takenAt} is removed: events, sessions and app users sent since then will be gone.`;
  for (const [label, size] of [['390', SCREEN.phone], ['1440', SCREEN.wide]] as const) {
    await page.setViewportSize(size);
    await restore.click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`Restore Backups Server to ${takenAt}?`);
    await expect(dialog).toContainText(lost);
    await expectFits(page, size.width);
    await page.screenshot({ path: `${SHOTS}/restore-dialog-${label}.png`, animations: 'disabled' });
    if (label === '390') await dialog.getByRole('button', { name: 'Cancel' }).click();
    else await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByText('Restore requested.')).toBeVisible();
  await expect(page.getByTestId('timeline-event').filter({ hasText: 'Restore completed' }).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('status-panel').getByTestId('deployment-status')).toHaveAttribute('data-status', 'running');

  // The dashboard shows the backup's figures: what came after it is gone.
  await expectFigures(page, id, { events: '3', keys: '1', newUsers: '1' });

  // Download: a gzip archive named .tar.gz.
  await page.goto(serverPage);
  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download this backup' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.tar\.gz$/);
  const file = await download.path();
  expect([...readFileSync(file).subarray(0, 2)]).toEqual([0x1f, 0x8b]);

  // A second backup: the panel lists both, newest first.
  await panel.getByRole('button', { name: 'Back up now' }).click();
  await expect(panel.getByTestId('backup')).toHaveCount(2);
  await expect(panel.getByTestId('backup').first()).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Back up now' })).toBeEnabled();
  for (const [label, size] of [['1440', SCREEN.wide], ['390', SCREEN.phone]] as const) {
    await page.setViewportSize(size);
    await expectFits(page, size.width);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/page-${label}.png`, fullPage: true, animations: 'disabled' });
    await panel.screenshot({ path: `${SHOTS}/panel-${label}.png`, animations: 'disabled' });
  }

  // The platform admin's page of the server lists the same backups, with their size.
  const ops = await browser.newContext({ baseURL: process.env.BASE_URL });
  const admin = await ops.newPage();
  await asAdmin(admin);
  await admin.goto(`/#/admin/deployments/${id}`);
  const rows = admin.getByRole('table', { name: 'Backups' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(/Manual\s*Completed\s*[\d.]+ (B|kB|MB)\s*Restore this backup/);
  await rows.nth(1).scrollIntoViewIfNeeded();
  await admin.screenshot({ path: `${SHOTS}/admin-1440.png`, animations: 'disabled' });
  await ops.close();
});
