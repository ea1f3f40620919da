import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { asAdmin } from './adminPages';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

/**
 * Every code a person sees goes through the label table and every date through the
 * formatters. This walks customer and admin screens over servers in several states (running free,
 * paid, awaiting payment, deletion scheduled then cancelled) and fails on a raw code in the visible
 * text: snake_case, dotted.codes or an ISO timestamp. Allowed, because they are what a person
 * needs to read: email addresses and host names (a server's address, a custom domain) and URLs.
 */

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/raw-codes';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

const ALLOWED = [/\S+@\S+\.\w+/g, /https?:\/\/\S+/g, /\b[\w-]+(?:\.[\w-]+)*\.(?:example|localhost|com|org|net|io|test)\b/g];
const RAW = { snakeCase: /\b[a-z][a-z0-9]*_[a-z0-9_]+\b/, dottedCode: /\b[a-z][a-zA-Z0-9]+\.[a-z][a-zA-Z0-9]+\b/, isoTimestamp: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/ };

/** The raw codes in the page's visible text, each with a little context. */
async function rawCodes(page: Page): Promise<string[]> {
  let text = await page.evaluate(() => document.body.innerText);
  for (const allowed of ALLOWED) text = text.replace(allowed, ' ');
  return Object.entries(RAW).flatMap(([kind, pattern]) => {
    const found = new RegExp(pattern.source, 'g');
    return [...text.matchAll(found)].map((m) => `${kind}: "${text.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30).replace(/\s+/g, ' ')}"`);
  });
}

async function visit(page: Page, path: string, ready: (p: Page) => Promise<void>, shot: string) {
  await page.goto(path);
  await ready(page);
  // Loading spinners gone; the MAU bars are progress bars too, but labelled.
  await expect(page.locator('[role="progressbar"]:not([aria-label])')).toHaveCount(0, { timeout: 15_000 });
  expect(await rawCodes(page), `raw codes on ${path}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/${shot}-1440.png`, fullPage: true });
}

async function order(request: APIRequestContext, a: { cid: string; pid: string }, name: string, paid: boolean) {
  const plans = ((await (await request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await request.get('/api/v1/plans/configurables/public/gcp')).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> }).payload;
  const id = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id ?? '';
  const res = await request.post('/api/v1/deployments', {
    headers: { 'idempotency-key': randomUUID() },
    data: {
      name,
      plan: id(plans, paid ? 'v3.mau_1_000_gcp.base' : 'v3.mau_500_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: id(conf.regions, 'us-central1'), size: id(conf.sizes, 'mau_500'), features: [id(conf.features, 'domain.default'), id(conf.features, 'retention.6m'), id(conf.features, 'backup.daily')] },
      paymentVendor: paid ? 'paddle' : 'free',
      company: a.cid,
      project: a.pid,
      provider: 'gcp',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { payload: { _id: string } }).payload._id;
}

const running = async (request: APIRequestContext, id: string) =>
  expect
    .poll(async () => ((await (await request.get(`/api/v1/deployments/${id}/populated`)).json()) as { payload: { status: string; latestTask: { status: string } | null } }).payload, { timeout: 40_000 })
    .toMatchObject({ status: 'running', latestTask: { status: 'completed' } });

test.describe('codes shown as words', () => {
  test('no customer or admin screen shows a raw code, over servers in several states', async ({ page, browser }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(SCREEN.wide);
    const email = `words-${Date.now()}@e2e.example.com`;
    expect((await page.request.post('/api/v1/users', { data: { firstName: 'Wanda', lastName: 'Words', email, password: PASSWORD } })).status()).toBe(201);
    const mail = await waitForMail(email, 'Verify');
    expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
    const company = ((await (await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Words Co ${Date.now()}` } })).json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
    const a = { cid: company._id, pid: company.projects[0]?._id ?? '' };

    const free = await order(page.request, a, 'Free Words', false);
    const paid = await order(page.request, a, 'Paid Words', true);
    expect((await page.request.post(`/api/v1/payments/checkout/${paid}/pay`, { data: { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
    const unpaid = await order(page.request, a, 'Unpaid Words', true);
    await running(page.request, free);
    await running(page.request, paid);
    // A deletion scheduled and cancelled: its date and the health check go on the timeline.
    expect((await page.request.delete(`/api/v1/deployments/${free}`)).ok()).toBe(true);
    expect((await page.request.get(`/api/v1/deployments/${free}/cancel-termination`)).ok()).toBe(true);
    expect((await page.request.post(`/api/v1/deployments/${free}/health-check`, { data: {} })).ok()).toBe(true);
    await running(page.request, free);

    const scope = `/#/c/${a.cid}/p/${a.pid}`;
    const h1 = (name: string | RegExp) => async (p: Page) => void (await expect(p.getByRole('heading', { name, level: 1 })).toBeVisible());
    await visit(page, `${scope}/dashboard`, async (p) => void (await expect(p.getByText('Paid Words').first()).toBeVisible()), 'dashboard');
    await visit(page, `${scope}/deployments`, async (p) => void (await expect(p.getByText('Unpaid Words').first()).toBeVisible()), 'deployments');
    for (const [id, name] of [[free, 'Free Words'], [paid, 'Paid Words'], [unpaid, 'Unpaid Words']] as const) {
      await visit(page, `${scope}/deployments/${id}`, async (p) => {
        await h1(name)(p);
        await expect(p.getByTestId('timeline-panel')).toBeVisible();
      }, `server-${name.split(' ')[0]?.toLowerCase()}`);
    }
    await visit(page, `${scope}/management/billing`, async (p) => void (await expect(p.getByTestId('transaction').first()).toBeVisible()), 'billing');

    const ops = await browser.newContext({ baseURL: process.env.BASE_URL });
    const admin = await ops.newPage();
    await asAdmin(admin);
    const tasks = ((await (await page.request.get(`/api/v1/deployments/events?_id=${free}`)).json()) as { payload: { tasks: { _id: string }[] } }).payload.tasks;
    const tab = (name: string) => async (p: Page) => void (await expect(p.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true'));
    const rows = (p: Page) => expect(p.getByRole('row').nth(1)).toBeVisible();
    await visit(admin, '/#/admin/companies', async (p) => void (await tab('Companies')(p), await rows(p)), 'admin-companies');
    await visit(admin, `/#/admin/companies/${a.cid}`, async (p) => void (await expect(p.getByRole('table', { name: 'Servers' }).getByRole('cell', { name: 'Paid Words', exact: true })).toBeVisible()), 'admin-company');
    await visit(admin, '/#/admin/users', async (p) => void (await tab('Users')(p), await rows(p)), 'admin-users');
    await visit(admin, '/#/admin/deployments', async (p) => void (await rows(p)), 'admin-servers');
    for (const id of [free, unpaid]) await visit(admin, `/#/admin/deployments/${id}`, async (p) => void (await expect(p.getByRole('heading', { level: 1 })).toBeVisible()), `admin-server-${id.slice(0, 4)}`);
    await visit(admin, '/#/admin/deploymentTasks', async (p) => void (await rows(p)), 'admin-tasks');
    await visit(admin, `/#/admin/taskDetail/${tasks[0]?._id ?? ''}`, async (p) => void (await expect(p.getByRole('heading', { level: 1 })).toBeVisible()), 'admin-task');
    await visit(admin, '/#/admin/logs', async (p) => void (await rows(p)), 'admin-logs');
    await ops.close();
  });
});
