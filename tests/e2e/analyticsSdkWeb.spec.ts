import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { freePort } from '../support/net';
import { expect, SCREEN, test } from './fixtures';
import { freeServer } from './analyticsServer';

const SHOTS = 'test-results/screens/analytics';
const today = () => new Date().toISOString().slice(0, 10);
/** The real web SDK from npm, as a customer's site would serve it. */
const SDK = readFileSync(createRequire(import.meta.url).resolve('countly-sdk-web/lib/countly.js'), 'utf8');

/** Polls the tenant API until `done` holds (the SDK sends on its own timer). */
async function until<T>(page: Page, url: string, done: (payload: T) => boolean): Promise<T> {
  for (let i = 0; i < 150; i += 1) {
    const res = await page.request.get(url);
    if (res.ok()) {
      const payload = ((await res.json()) as { payload: T }).payload;
      if (done(payload)) return payload;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`${url} never matched`);
}

/** The customer's site: another origin (its own port) serving a page that uses the SDK against the product. */
function customerSite(server: string, appKey: string): Server {
  // ignore_bots: headless Chromium says HeadlessChrome in its user agent, which the SDK takes for a bot.
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Customer</title><link rel="icon" href="data:,">
<script src="/countly.js"></script>
<script>
  Countly.init({ app_key: ${JSON.stringify(appKey)}, url: ${JSON.stringify(server)}, debug: true, interval: 200, ignore_bots: false });
  Countly.track_sessions();
  Countly.track_pageview('/landing');
  for (let i = 0; i < 12; i++) Countly.add_event({ key: i % 2 ? 'add_to_cart' : 'search', count: 1, sum: i, segmentation: { shelf: 'shelf-' + (i % 3) } });
  Countly.user_details({ name: 'Grace Hopper', email: 'grace@customer.example', custom: { tier: 'gold' } });
  setTimeout(() => Countly.track_pageview('/pricing'), 1500);
</script></head><body><h1>Customer site</h1></body></html>`;
  return createServer((req, res) => {
    if (req.url === '/countly.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(SDK);
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else res.writeHead(404).end();
  });
}

test('the real web SDK on a customer site of another origin works without a console error or failed request, and its page view is counted once in Views', async ({ page, browser, baseURL }) => {
  const deploymentId = await freeServer(page, 'Web SDK');
  const api = `/api/v1/analytics/${deploymentId}`;
  expect((await page.request.post(`${api}/open`, { data: {} })).ok()).toBe(true);
  const created = await page.request.post(`${api}/apps`, { data: { name: 'Customer web', type: 'web' } });
  expect(created.status(), await created.text()).toBe(201);
  const app = ((await created.json()) as { payload: { _id: string; key: string } }).payload;
  // The app admin sets SDK behaviour on the app's page; the SDK fetches it at init from /o/sdk.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(`/#/analytics/${deploymentId}/apps/${app._id}`);
  const sdkPanel = page.getByRole('region', { name: 'SDK behaviour' });
  await sdkPanel.getByLabel('Session update interval (seconds)').fill('30');
  const reread = page.waitForResponse((r) => r.url().endsWith('/sdk-settings') && r.request().method() === 'GET');
  await sdkPanel.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Changes saved')).toBeVisible();
  // Saved and read back: the form, drawn again from the stored settings, shows the value.
  await reread;
  await expect(sdkPanel.getByLabel('Session update interval (seconds)')).toHaveValue('30');
  await sdkPanel.screenshot({ path: `${SHOTS}/sdk-settings-1440.png` });

  const port = await freePort();
  const site = customerSite(baseURL ?? '', app.key);
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
  const customer = await browser.newContext();
  try {
    const visitor = await customer.newPage();
    const errors: string[] = [];
    const logs: string[] = [];
    visitor.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : logs.push(m.text())));
    visitor.on('pageerror', (e) => errors.push(e.message));
    visitor.on('requestfailed', (r) => errors.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    visitor.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`);
    });
    await visitor.goto(`http://127.0.0.1:${port}/`);

    const period = `from=${today()}&to=${today()}`;
    type Views = { view: string; visits: number; duration: number }[];
    const views = await until<Views>(page, `${api}/apps/${app._id}/views?${period}`, (v) => v.some((x) => x.view === '/pricing') && (v.find((x) => x.view === '/landing')?.duration ?? 0) > 0);
    // One visit, whose duration came with the closing [CLY]_view the next page view sent.
    expect(views.find((x) => x.view === '/landing')?.visits).toBe(1);
    type Events = { key: string; totals: { count: number; sum: number } }[];
    const events = await until<Events>(page, `${api}/apps/${app._id}/events?${period}`, (e) => e.reduce((n, x) => n + x.totals.count, 0) >= 12);
    expect(events.map((e) => [e.key, e.totals.count]).sort()).toEqual([['add_to_cart', 6], ['search', 6]]);
    const sessions = await until<{ days: { sessions: number }[] }>(page, `${api}/apps/${app._id}/sessions?${period}`, (s) => s.days.some((d) => d.sessions > 0));
    expect(sessions.days.reduce((n, d) => n + d.sessions, 0)).toBe(1);
    // The SDK read the /o/sdk answer and applied it.
    expect(logs.some((l) => l.includes('Config fetched successfully') && l.includes('"sui":30'))).toBe(true);
    // The user's details, on the device the SDK made up.
    const deviceId = await visitor.evaluate(() => (window as unknown as { Countly: { get_device_id(): string } }).Countly.get_device_id());
    const user = await until<{ details: Record<string, unknown> }>(page, `${api}/apps/${app._id}/app-users/${encodeURIComponent(deviceId)}`, (u) => u.details.name === 'Grace Hopper');
    expect(user.details).toMatchObject({ name: 'Grace Hopper', email: 'grace@customer.example', custom: { tier: 'gold' } });
    await visitor.waitForTimeout(500);
    expect(errors).toEqual([]);
  } finally {
    await customer.close();
    await new Promise((resolve) => site.close(resolve));
  }

  // The events on the dashboard, without any [CLY]_ event among them.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(`/#/analytics/${deploymentId}/events/all`);
  const eventList = page.getByRole('list', { name: 'Event' });
  await expect(eventList.getByText('search')).toBeVisible();
  await expect(eventList.getByText('add_to_cart')).toBeVisible();
  await expect(eventList.getByText(/\[CLY\]/)).toHaveCount(0);

  // Views in the dashboard: the page view counted once.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(`/#/analytics/${deploymentId}/views`);
  const landing = page.getByRole('row', { name: /\/landing/ });
  await expect(landing).toBeVisible();
  await expect(landing.getByRole('cell').nth(1)).toHaveText('1');
  await page.screenshot({ path: `${SHOTS}/views-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(landing).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/views-390.png`, fullPage: true });
});
