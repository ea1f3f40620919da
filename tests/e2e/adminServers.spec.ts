import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { admin, expect, test } from './fixtures';
import { adminShots, asAdmin } from './adminPages';
import { waitForMail } from './mailbox';

/**
 * The admin servers and task queue screens: both lists searched, sorted, paged and exported;
 * a failed provisioning retried from the task's page until the server runs (globalSetup makes
 * servers named "Flaky..." fail their first two machine creations); and a restart run by the
 * admin from the server's page, seen to complete. The worker runs in the e2e server.
 */

const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

interface Customer {
  request: APIRequestContext;
  cid: string;
  pid: string;
}

/** A customer with a company, in a browser context of their own (only its requests are used). */
async function customer(browser: Browser, tag: string): Promise<Customer & { close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: process.env.BASE_URL });
  const request = context.request;
  const email = newEmail(tag);
  expect((await request.post('/api/v1/users', { data: { firstName: 'Cus', lastName: 'Tomer', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await request.post('/api/v1/companies?onboarding=1', { data: { name: `Company ${tag} ${n}` } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { request, cid: company._id, pid: company.projects[0]?._id ?? '', close: () => context.close() };
}

/** Orders a free server through the API, as the wizard does; answers its id. */
async function orderFree(c: Customer, name: string): Promise<string> {
  const plans = ((await (await c.request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
  const conf = ((await (await c.request.get('/api/v1/plans/configurables/public/gcp')).json()) as { payload: Record<'regions' | 'sizes' | 'features', { _id: string; code: string }[]> }).payload;
  const id = (list: { _id: string; code: string }[], code: string) => list.find((i) => i.code === code)?._id ?? '';
  const res = await c.request.post('/api/v1/deployments', {
    headers: { 'idempotency-key': randomUUID() },
    data: {
      name,
      plan: id(plans, 'v3.mau_500_gcp.base'),
      paymentCycle: 'month',
      planConfig: { region: id(conf.regions, 'us-central1'), size: id(conf.sizes, 'mau_500'), features: [id(conf.features, 'domain.default')] },
      paymentVendor: 'free',
      company: c.cid,
      project: c.pid,
      provider: 'gcp',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { payload: { _id: string } }).payload._id;
}



/** Types a search and waits for the list's answer to it (the box waits for the typing to stop). */
async function search(page: Page, table: Locator, resource: string, text: string) {
  // The list of this resource first: right after a tab click the box may still be the last list's.
  await expect(table).toBeVisible();
  const answered = page.waitForResponse((r) => r.url().includes(`/api/v1/admin/${resource}?`) && decodeURIComponent(r.url().replace(/\+/g, ' ')).includes(`"q":"${text}"`));
  await page.getByRole('searchbox').fill(text);
  await answered;
}

/** Exports the list's query as CSV and answers its lines. */
async function exportCsv(page: Page, name: string) {
  await page.getByRole('button', { name: /export/i }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: /csv/i }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${name}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  return readFileSync(await file.path(), 'utf8').trimEnd().split('\n');
}

test.describe('admin servers and tasks', () => {
  test('servers and tasks lists: search, sort, page and export the query as CSV, with labels for codes', async ({ page, browser }) => {
    test.setTimeout(180_000);
    // A name of this run's own, so a repeated run (or leftovers of another) matches only its servers.
    const prefix = `Pager ${Date.now().toString(36)}`;
    const c = await customer(browser, 'pager');
    for (let i = 1; i <= 11; i += 1) await orderFree(c, `${prefix} ${String(i).padStart(2, '0')}`);
    await c.close();
    await asAdmin(page);

    await page.goto('/#/admin/deployments');
    await expect(page.getByRole('tab', { name: 'Servers' })).toHaveAttribute('aria-selected', 'true');
    const servers = page.getByRole('table', { name: 'Servers' });
    await search(page, servers, 'deployments', prefix);
    await expect(page.getByText('Showing 1 to 10 of 11')).toBeVisible();
    await servers.getByRole('button', { name: 'Name' }).click();
    await expect(servers.getByRole('row').nth(1)).toContainText(`${prefix} 01`);
    await servers.getByRole('button', { name: 'Name' }).click();
    await expect(servers.getByRole('row').nth(1)).toContainText(`${prefix} 11`);
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('Showing 11 to 11 of 11')).toBeVisible();
    await expect(servers.getByRole('row').nth(1)).toContainText(`${prefix} 01`);
    // The status shows the customer's label, and the filter offers the same labels.
    await expect(servers.getByRole('row').nth(1)).toContainText(/Initializing|Running|Waiting for response/);
    const csv = await exportCsv(page, 'deployments');
    expect(csv[0]).toBe('ID,Name,Company,Status,Plan,Region,Subscription,Created');
    expect(csv).toHaveLength(12);
    await page.getByLabel('Status').selectOption({ label: 'Initialization failed' });
    await expect(page.getByText('Showing 0 to 0 of 0')).toBeVisible();
    await page.getByLabel('Status').selectOption({ label: 'Any' });

    await page.getByRole('tab', { name: 'Tasks' }).click();
    await expect(page).toHaveURL(/#\/admin\/deploymentTasks$/);
    const tasks = page.getByRole('table', { name: 'Tasks' });
    await search(page, tasks, 'deploymentTasks', prefix);
    await expect(page.getByText('Showing 1 to 10 of 11')).toBeVisible();
    await expect(tasks.getByRole('row').nth(1)).toContainText('Setting up');
    await tasks.getByRole('button', { name: 'Server' }).click();
    await expect(tasks.getByRole('row').nth(1)).toContainText(`${prefix} 01`);
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('Showing 11 to 11 of 11')).toBeVisible();
    await expect(tasks.getByRole('row').nth(1)).toContainText(`${prefix} 11`);
    // A filter from the bar keeps the table's page: every one of these tasks sets a server up.
    await page.getByLabel('Type').selectOption({ label: 'Setting up' });
    await expect(page.getByText('Showing 11 to 11 of 11')).toBeVisible();
    await expect(tasks.getByRole('row').nth(1)).toContainText(`${prefix} 11`);
    await page.getByLabel('Type').selectOption({ label: 'Restart' });
    await expect(page.getByText('Showing 0 to 0 of 0')).toBeVisible();
    // Back to the tasks, on the page the table kept.
    await page.getByLabel('Type').selectOption({ label: 'Setting up' });
    await expect(page.getByText('Showing 11 to 11 of 11')).toBeVisible();
    await expect(tasks.getByRole('row').nth(1)).toContainText(`${prefix} 11`);
    const taskCsv = await exportCsv(page, 'deploymentTasks');
    expect(taskCsv[0]).toBe('ID,Created,Status,Type,Server,Company,Attempts,Assignee,Worker,Error');
    expect(taskCsv).toHaveLength(12);
    expect(taskCsv[1]).toContain(`,Setting up,${prefix}`);
    await adminShots(page, 'tasks-list');
  });

  test('a failed provisioning retried from the task page brings the server up; a restart from the server page completes', async ({ page, browser }) => {
    // Two provisioning attempts with the worker's retry delay between them, then a retry and a
    // restart: minutes on a slow hour. The waits end as soon as the status shows.
    test.setTimeout(360_000);
    const c = await customer(browser, 'flaky');
    const id = await orderFree(c, 'Flaky Server');
    await c.close();
    await asAdmin(page);

    // Both provisioning attempts fail: the server shows the error status on its admin page.
    await page.goto(`/#/admin/deployments/${id}`);
    await expect(page.getByRole('heading', { name: 'Flaky Server' })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('deployment-status')).toHaveAttribute('data-status', 'error_initializing', { timeout: 2_000 });
    }).toPass({ timeout: 120_000 });
    await expect(page.getByTestId('deployment-status')).toHaveText('Initialization failed');
    await expect(page.getByTestId('admin-server-actions').getByRole('button', { name: 'Force retry' })).toBeVisible();
    await expect(page.getByTestId('admin-server-actions').getByRole('button', { name: 'Restart' })).toBeDisabled();
    await adminShots(page, 'server-page-failed');

    // The task's page: retry it; the new task's page follows the worker to completion.
    await page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'Setting up' }).click();
    await expect(page).toHaveURL(/#\/admin\/taskDetail\/[0-9a-f-]{36}$/);
    const failedUrl = page.url();
    await expect(page.getByTestId('task-status')).toHaveText('Failed');
    await expect(page.getByText(/createMachine failed/)).toBeVisible();
    await adminShots(page, 'task-detail-failed');
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await expect(page.getByText(`Assignee: Platform Admin <${admin().email}>`)).toBeVisible();
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect(page).not.toHaveURL(failedUrl);
    await expect(page.getByTestId('task-status')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
    await page.getByRole('link', { name: /^Server: Flaky Server/ }).click();
    await expect(page.getByTestId('deployment-status')).toHaveAttribute('data-status', 'running');
    await expect(page.getByTestId('deployment-status')).toHaveText('Running');

    // A restart by the admin, confirmed, followed on the page until the server runs again.
    const actions = page.getByTestId('admin-server-actions');
    await actions.getByRole('button', { name: 'Restart' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Restart Flaky Server?');
    await dialog.getByRole('button', { name: 'Restart' }).click();
    await expect(page.getByText('Restart requested.')).toBeVisible();
    const restartRow = page.getByRole('table', { name: 'Tasks' }).getByRole('row').nth(1);
    await expect(restartRow).toContainText('Restart');
    await expect(restartRow).toContainText('Completed', { timeout: 120_000 });
    await expect(page.getByTestId('deployment-status')).toHaveAttribute('data-status', 'running');
    await adminShots(page, 'server-page');
  });
});
