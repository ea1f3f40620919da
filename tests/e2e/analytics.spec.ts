import { request as playwrightRequest, type Page } from '@playwright/test';
import Countly from 'countly-sdk-nodejs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, SCREEN, test } from './fixtures';
import { freeServer } from './analyticsServer';
import { waitForMail } from './mailbox';

const SHOTS = 'test-results/screens/analytics';
const today = () => new Date().toISOString().slice(0, 10);

/** Polls the tenant API until `done` holds (the SDK sends on its own timer). */
async function until(page: Page, url: string, done: (payload: unknown) => boolean) {
  for (let i = 0; i < 100; i += 1) {
    const res = await page.request.get(url);
    if (res.ok() && done(((await res.json()) as { payload: unknown }).payload)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${url} never matched`);
}

const pick = async (page: Page, label: string, option: string) => {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

test('a company admin opens their server dashboard, creates an app, sees SDK events, hides, groups, limits a token and exports then purges an app user', async ({ page, baseURL }) => {
  const deploymentId = await freeServer(page, 'Analytics');
  const base = `/#/analytics/${deploymentId}`;

  // The dashboard opens on the events overview; with no app yet it offers to create one.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(base);
  await expect(page).toHaveURL(/events\/overview$/);
  await expect(page.getByText('No application yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add new app' }).click();
  await page.getByLabel('Application name').fill('Lantern iOS');
  await page.getByLabel('Time zone').selectOption('UTC');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const appKey = (await page.getByTestId('app-key').textContent()) ?? '';
  expect(appKey).toMatch(/^[a-f0-9]{20,}$/i);
  const appId = /apps\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  await page.screenshot({ path: `${SHOTS}/app-1440.png`, fullPage: true });

  // Events from the official Countly Node SDK, sent by this test process to the running product.
  Countly.init({ app_key: appKey, url: baseURL ?? '', device_id: 'e2e-device-1', storage_path: mkdtempSync(join(tmpdir(), 'countly-e2e-')), storage_type: 'memory', interval: 50, fail_timeout: 1 });
  Countly.begin_session(true);
  Countly.add_event({ key: 'purchase', count: 2, sum: 19.98, segmentation: { plan: 'yearly' } });
  Countly.add_event({ key: 'purchase', count: 1, sum: 4.99, segmentation: { plan: 'monthly' } });
  Countly.add_event({ key: 'signup', count: 3, segmentation: { source: 'ad' } });
  Countly.end_session(30);
  const events = `/api/v1/analytics/${deploymentId}/apps/${appId}/events?from=${today()}&to=${today()}`;
  await until(page, events, (p) => (p as { key: string; totals: { count: number } }[]).some((e) => e.key === 'signup' && e.totals.count === 3) && (p as { key: string; totals: { count: number } }[]).some((e) => e.key === 'purchase' && e.totals.count === 3));

  // All events: both events, their totals and the segmentation of the picked one.
  await page.goto(`${base}/events/all`);
  const eventList = page.getByRole('list', { name: 'Event' });
  await expect(eventList.getByText('purchase')).toBeVisible();
  await expect(eventList.getByText('signup')).toBeVisible();
  await eventList.getByText('purchase').click();
  await expect(page.getByRole('region', { name: 'Count' })).toContainText('3');
  await pick(page, 'Segmentation', 'plan');
  await expect(page.getByRole('cell', { name: 'yearly' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Event trend/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/all-events-1440.png`, fullPage: true });

  // Hide one: the edit event drawer; a hidden event is still listed, marked hidden.
  await eventList.getByText('signup').click();
  await page.getByRole('button', { name: 'Edit event' }).click();
  const drawer = page.getByRole('form', { name: 'Edit event' });
  await drawer.getByLabel('Display name', { exact: true }).fill('Sign-up');
  await drawer.getByLabel('Visible').uncheck();
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(eventList.getByRole('button', { name: /Sign-up/ })).toContainText('Hidden');

  // The overview: a tile for purchases.
  await page.goto(`${base}/events/overview`);
  await page.getByRole('button', { name: 'Configure overview' }).click();
  await pick(page, 'Event', 'purchase');
  await page.getByRole('button', { name: 'Add tile' }).click();
  await page.getByRole('button', { name: 'Add tile' }).click();
  await expect(page.getByRole('alert')).toHaveText('This event and property is already on the overview.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'purchase · Count' })).toContainText('3');
  await expect(page.getByRole('region', { name: 'Events recorded' })).toContainText('6');
  await page.screenshot({ path: `${SHOTS}/overview-1440.png`, fullPage: true });

  // Group two: one event is refused, two are a group.
  await page.goto(`${base}/events/groups`);
  await page.getByRole('button', { name: 'Create event group' }).first().click();
  const groupDialog = page.getByRole('dialog');
  await groupDialog.getByLabel(/^Name/).fill('Funnel');
  await groupDialog.getByLabel('purchase').check();
  await groupDialog.getByRole('button', { name: 'Save' }).click();
  await expect(groupDialog.getByText('An event group needs at least 2 events.')).toBeVisible();
  await groupDialog.getByLabel('Sign-up').check();
  await groupDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Funnel', exact: true })).toBeVisible();

  // A token limited to one endpoint: requests outside it are refused.
  await page.goto(`${base}/tokens/create`);
  await page.getByLabel('Purpose').fill('Apps reader');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByLabel('Endpoint', { exact: true }).fill('/apps');
  await page.getByLabel('All applications').check();
  await page.getByLabel('Never expires', { exact: true }).check();
  await page.getByRole('button', { name: 'Create token' }).last().click();
  const token = await page.getByTestId('new-token').inputValue();
  expect(token.length).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('cell', { name: 'Apps reader', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/tokens-1440.png`, fullPage: true });
  const outsider = await playwrightRequest.newContext({ baseURL });
  const allowed = await outsider.get(`/api/v1/analytics/${deploymentId}/apps`, { headers: { 'countly-token': token } });
  expect(allowed.status()).toBe(200);
  const refused = await outsider.get(`/api/v1/analytics/${deploymentId}/tokens`, { headers: { 'countly-token': token } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('ANALYTICS_TOKEN_REFUSED');
  await outsider.dispose();

  // App users: find, export (the downloading view, a file named with the date), purge after a confirmation.
  await page.goto(`${base}/app-users`);
  await page.getByLabel('Device ID').fill('e2e-device-1');
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByText('Stored events')).toBeVisible();
  await page.getByRole('button', { name: 'Export data' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe(`export-e2e-device-1-${today()}.json`);
  await page.screenshot({ path: `${SHOTS}/app-users-1440.png`, fullPage: true });
  await page.getByRole('button', { name: 'Purge data' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Purge data' }).click();
  await expect(page.getByText('User data purged')).toBeVisible();
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  // The phone layout: the menu is a drawer.
  await page.setViewportSize(SCREEN.phone);
  await page.goto(`${base}/events/all`);
  await expect(page.getByRole('list', { name: 'Event' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/all-events-390.png`, fullPage: true });
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.screenshot({ path: `${SHOTS}/menu-390.png` });
  await page.getByRole('link', { name: 'Applications' }).click();
  await expect(page.getByRole('cell', { name: 'Lantern iOS', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/apps-390.png`, fullPage: true });
  Countly.halt(true);
});

test('a visitor asks for a free app profile review', async ({ page }) => {
  for (const [name, size] of Object.entries(SCREEN)) {
    await page.setViewportSize(size);
    await page.goto('/#/tools/free-app-profile-review');
    // A fresh visit: the form again, not the last confirmation.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Free app profile review' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/review-form-${size.width}.png`, fullPage: true });
    const email = `review-${name}-${Date.now()}@e2e.example.com`;
    await page.getByLabel('App name').fill('Lantern Notes');
    await page.getByLabel('Platform').selectOption('ios');
    await page.getByLabel('Store link').fill('https://apps.apple.com/app/lantern/id1');
    await page.getByLabel('Your email').fill(email);
    await page.getByRole('button', { name: 'Request my free review' }).click();
    await expect(page.getByText(`We sent a confirmation to ${email}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/review-done-${size.width}.png`, fullPage: true });
    const mail = await waitForMail(email, 'free app profile review');
    expect(mail.link).toMatch(/#\/tools\/dashboard-preview$/);
  }
});

test('a visitor explores the read-only dashboard preview and can order a server from it', async ({ page }) => {
  for (const size of Object.values(SCREEN)) {
    await page.setViewportSize(size);
    await page.goto('/#/tools/dashboard-preview');
    await expect(page).toHaveURL(/dashboard-preview\/events\/overview$/);
    await expect(page.getByRole('region', { name: 'Events recorded' })).toBeVisible();
    await expect(page.getByText('Read-only')).toBeVisible();
    // One header: the dashboard's own, not the front door's bar above it too.
    await expect(page.locator('header')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Configure overview' })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/preview-overview-${size.width}.png`, fullPage: true });
    // SPEC §9: 'All time' is a shortcut; it runs from the app's creation, all of its data.
    await page.getByRole('button', { name: /^Period:/ }).click();
    await page.getByRole('dialog', { name: 'Period' }).getByRole('button', { name: 'All time' }).click();
    await expect(page.getByRole('button', { name: 'Period: All time' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Period' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Events recorded' })).toBeVisible();
    await page.goto('/#/tools/dashboard-preview/events/all');
    await expect(page.getByRole('img', { name: /Event trend/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit event' })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/preview-events-${size.width}.png`, fullPage: true });
  }
  await page.goto('/#/tools/dashboard-preview/apps');
  await expect(page.getByRole('button', { name: 'Add new app' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Get your own server' }).click();
  await expect(page).toHaveURL(/#\/get-started/);
});

test('an app admin makes an email report in the report manager, switches it, and sends it now', async ({ page }) => {
  const deploymentId = await freeServer(page, 'Analytics');
  const base = `/#/analytics/${deploymentId}`;
  expect((await page.request.post(`/api/v1/analytics/${deploymentId}/open`, { data: {} })).ok()).toBe(true);
  const app = ((await (await page.request.post(`/api/v1/analytics/${deploymentId}/apps`, { data: { name: 'Lantern Web', timezone: 'UTC' } })).json()) as { payload: { key: string } }).payload;
  const yesterday = Date.now() - 86_400_000;
  for (const device of ['r1', 'r2', 'r3']) {
    const events = JSON.stringify([{ key: 'purchase', count: 2, sum: 10 }, { key: 'signup', count: 1 }]);
    expect((await page.request.get(`/i?app_key=${app.key}&device_id=${device}&begin_session=1&timestamp=${yesterday}&events=${encodeURIComponent(events)}`)).ok()).toBe(true);
  }

  await page.setViewportSize(SCREEN.wide);
  await page.goto(`${base}/events/overview`);
  await page.getByRole('link', { name: 'Report manager' }).click();
  await expect(page.getByText('No reports yet')).toBeVisible();
  await page.getByRole('button', { name: 'Create new report' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Report name').fill('Weekly numbers');
  // Reports go only to users of the dashboard or the company: the owner reads it.
  const reader = ((await (await page.request.get('/api/v1/auth/me')).json()) as { payload: { email: string } }).payload.email;
  await dialog.getByLabel('Emails to receive the report').fill(reader);
  await pick(page, 'Report frequency', 'Weekly');
  await pick(page, 'Day of the week', 'Monday');
  await dialog.getByLabel('Time of day').fill('08:30');
  await dialog.getByLabel('Time zone').selectOption('Europe/Berlin');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/report-dialog-1440.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Mondays at 08:30 (Europe/Berlin)' })).toBeVisible();
  await page.getByLabel('Send Weekly numbers on its schedule').click();
  await expect(page.getByLabel('Send Weekly numbers on its schedule')).not.toBeChecked();
  await page.getByLabel('Send Weekly numbers on its schedule').click();
  await expect(page.getByLabel('Send Weekly numbers on its schedule')).toBeChecked();
  await page.getByRole('button', { name: 'Send now Weekly numbers' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByText('Report sent')).toBeVisible();
  // The subject carries no customer-written text; the report's title is in the body.
  const mail = await waitForMail(reader, 'weekly');
  expect(mail.subject).not.toContain('Weekly numbers');
  expect(mail.html).toContain('Weekly numbers');
  expect(mail.text).toContain('Lantern Web\n  Total sessions: 3\n  New users: 3');
  expect(mail.text).toContain('purchase: 6 (sum 30)');
  await page.screenshot({ path: `${SHOTS}/reports-1440.png`, fullPage: true });

  await page.goto(`${base}/jobs`);
  await expect(page.getByRole('cell', { name: 'Email report' })).toBeVisible();
  await page.setViewportSize(SCREEN.phone);
  await page.goto(`${base}/reports`);
  await expect(page.getByText('Weekly numbers')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/reports-390.png`, fullPage: true });
  await page.getByRole('button', { name: 'Create new report' }).first().click();
  await expect(page.getByRole('dialog').getByLabel('Report name')).toBeVisible();
  // The dialog fades in: the picture waits for the end of it.
  await page.waitForFunction(() => [...document.querySelectorAll('.MuiDialog-root .MuiBackdrop-root')].every((e) => getComputedStyle(e).opacity === '1'));
  await page.screenshot({ path: `${SHOTS}/report-dialog-390.png` });
});
