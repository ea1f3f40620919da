import { readFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { admin, expect, openSignIn, test } from './fixtures';
import { adminShots, asAdmin } from './adminPages';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/admin';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** A customer in a browser of their own: verified, with a company, signed in. */
async function customer(browser: Browser, tag: string) {
  const context = await browser.newContext({ baseURL: process.env.BASE_URL });
  const page = await context.newPage();
  const email = newEmail(tag);
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Cus', lastName: 'Tomer', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Company ${tag} ${n}` } });
  const company = ((await res.json()) as { payload: { _id: string; name: string; projects: { _id: string }[] } }).payload;
  return { context, page, email, cid: company._id, pid: company.projects[0]?._id ?? '', companyName: company.name };
}



test.describe('admin area', () => {
  // Several accounts, two browsers and screenshots at two widths per test.
  test('users: list, search, sort, page and export the query as a streamed CSV', async ({ page, request }) => {
    // Enough users for a second page.
    for (let i = 0; i < 11; i += 1) {
      expect((await request.post('/api/v1/users', { data: { firstName: 'Page', lastName: `User${i}`, email: newEmail(`pager${i}`), password: PASSWORD } })).status()).toBe(201);
    }
    await asAdmin(page);
    await page.goto('/#/admin/users');
    await expect(page.getByText('Admin Mode')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(page.getByText(/^Showing 1 to 10 of \d+$/)).toBeVisible();

    // Sort by email, descending: the first row changes to the last email.
    await table.getByRole('button', { name: 'Email' }).click();
    await expect(table.getByRole('row').nth(1)).toContainText('@');
    const firstAsc = await table.getByRole('row').nth(1).getByRole('cell').first().innerText();
    await table.getByRole('button', { name: 'Email' }).click();
    await expect(table.getByRole('row').nth(1).getByRole('cell').first()).not.toHaveText(firstAsc);

    // The next page.
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText(/^Showing 11 to \d+ of \d+$/)).toBeVisible();

    await page.getByRole('searchbox').fill('admin@e2e');
    await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();
    await expect(table.getByRole('link', { name: admin().email })).toBeVisible();
    await adminShots(page, 'users-list');

    await page.getByRole('button', { name: /export/i }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: /csv/i }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await file.path(), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toContain('Email');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(admin().email);
  });

  test('lock refuses the sign-in, unlock lets it in again; ending sessions signs the browser out', async ({ page, browser }) => {
    const user = await customer(browser, 'locked');
    await user.page.goto('/#/profile/account');
    await expect(user.page.getByRole('heading', { level: 1 })).toBeVisible();

    await asAdmin(page);
    await page.goto('/#/admin/users');
    await page.getByRole('searchbox').fill(user.email);
    await page.getByRole('link', { name: user.email }).click();
    await expect(page.getByRole('heading', { name: user.email })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Companies' })).toContainText(user.companyName);
    await adminShots(page, 'user-page');

    // End all sessions: the user's open browser is signed out at its next request.
    await page.getByRole('button', { name: 'End all sessions' }).click();
    await expect(page.getByText('Every session of the user has ended.')).toBeVisible();
    await user.page.reload();
    await expect(user.page).toHaveURL(/#\/(account\/signin|loading)/);

    // Lock: the right password is refused.
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect(page.getByText('Locked', { exact: true })).toBeVisible();
    await openSignIn(user.page);
    await user.page.getByLabel('Email').fill(user.email);
    await user.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await user.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(user.page.getByText(/locked/i).first()).toBeVisible();
    await expect(user.page).toHaveURL(/account\/signin/);

    // Unlock: the same sign-in goes through.
    await page.getByRole('button', { name: 'Unlock' }).click();
    await expect(page.getByText('The account is unlocked.')).toBeVisible();
    await user.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Back where the session ended (the stored return route).
    await expect(user.page).toHaveURL(/#\/profile\/account/);
    await user.context.close();
  });

  test("companies: search, filter, the company page, and a read-only view as its admin", async ({ page, browser }) => {
    const owner = await customer(browser, 'acme');
    await owner.context.close();
    // The platform admin's own company, made first in a session of its own (one session at a time).
    const api = await browser.newContext({ baseURL: process.env.BASE_URL });
    expect((await api.request.post('/api/v1/auth/signin', { data: { email: admin().email, password: admin().password } })).ok()).toBe(true);
    const own = await api.request.post('/api/v1/companies', { data: { name: `Ops Own ${Date.now()}` } });
    expect(own.status()).toBe(201);
    const ownId = ((await own.json()) as { payload: { _id: string } }).payload._id;
    await api.close();
    await asAdmin(page);
    await page.goto('/#/admin');
    await expect(page).toHaveURL(/#\/admin\/companies$/);
    await expect(page.getByRole('tab', { name: 'Companies' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('searchbox').fill(owner.companyName);
    await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();
    await page.getByLabel('Has paid servers').selectOption('false');
    await expect(page.getByText('Showing 1 to 1 of 1')).toBeVisible();
    await adminShots(page, 'companies-list');
    await page.getByLabel('Has paid servers').selectOption('true');
    await expect(page.getByRole('link', { name: owner.companyName })).toHaveCount(0);
    await page.getByLabel('Has paid servers').selectOption('');

    await page.getByRole('link', { name: owner.companyName }).click();
    await expect(page.getByRole('heading', { name: owner.companyName, level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Members' })).toContainText(owner.email);
    await adminShots(page, 'company-page');

    await page.getByRole('button', { name: 'View as the company admin' }).click();
    await expect(page).toHaveURL(new RegExp(`#/c/${owner.cid}/p/${owner.pid}/dashboard`));
    await expect(page.getByText(`Viewing as ${owner.email}, read-only.`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/view-as-1440.png` });
    await page.getByRole('button', { name: 'End view' }).click();
    await expect(page).toHaveURL(new RegExp(`#/admin/companies/${owner.cid}$`));
    await expect(page.getByText(/Viewing as/)).toHaveCount(0);

    // A company the platform admin runs: the server would refuse the view, so the button is off and says why.
    const later = await browser.newContext({ baseURL: process.env.BASE_URL });
    const second = await later.newPage();
    await asAdmin(second);
    await second.goto(`/#/admin/companies/${ownId}`);
    await expect(second.getByRole('button', { name: 'View as the company admin' })).toBeDisabled();
    await expect(second.getByText("You are this company's admin: open it as yourself instead.")).toBeVisible();
    await adminShots(second, 'company-page-own');
    await later.close();
  });

  test('companies and logs: search, sort, page and export the query as CSV, like every admin list', async ({ page, browser }) => {
    const owner = await customer(browser, 'pagerco');
    const stamp = `Pager ${Date.now()}`;
    for (let i = 0; i < 11; i += 1) {
      expect((await owner.page.request.post('/api/v1/companies', { data: { name: `${stamp} ${String(i).padStart(2, '0')}` } })).status()).toBe(201);
    }
    await owner.context.close();
    await asAdmin(page);

    const exportCsv = async (resource: string) => {
      await page.getByRole('button', { name: /export/i }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: /csv/i }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^${resource}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      return readFileSync(await file.path(), 'utf8').trimEnd().split('\n');
    };

    // Companies: the eleven found by their common name, sorted both ways, two pages, the file.
    await page.goto('/#/admin/companies');
    const companies = page.getByRole('table', { name: 'Companies' });
    await page.getByRole('searchbox').fill(stamp);
    await expect(page.getByText('Showing 1 to 10 of 11')).toBeVisible();
    await companies.getByRole('button', { name: 'Name' }).click();
    await expect(companies.getByRole('row').nth(1)).toContainText(`${stamp} 00`);
    await companies.getByRole('button', { name: 'Name' }).click();
    await expect(companies.getByRole('row').nth(1)).toContainText(`${stamp} 10`);
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('Showing 11 to 11 of 11')).toBeVisible();
    await expect(companies.getByRole('row').nth(1)).toContainText(`${stamp} 00`);
    const companyLines = await exportCsv('companies');
    expect(companyLines[0]).toContain('Name');
    expect(companyLines.slice(1).map((l) => l.match(/Pager \d+ \d\d/)?.[0]).sort()).toEqual(Array.from({ length: 11 }, (_, i) => `${stamp} ${String(i).padStart(2, '0')}`));

    // Logs: the owner's own rows (sign-up, verification, sign-in, twelve companies), by what was done, two pages, the file.
    await page.goto('/#/admin/logs');
    const logs = page.getByRole('table', { name: 'Logs' });
    await page.getByRole('searchbox').fill(owner.email);
    await expect(page.getByText('Showing 1 to 10 of 15')).toBeVisible();
    await logs.getByRole('button', { name: 'What' }).click();
    await expect(logs.getByRole('row').nth(1)).toContainText('Company create');
    await logs.getByRole('button', { name: 'What' }).click();
    await expect(logs.getByRole('row').nth(1)).toContainText('User verify');
    await page.getByRole('button', { name: /next page/i }).click();
    await expect(page.getByText('Showing 11 to 15 of 15')).toBeVisible();
    await expect(logs.getByRole('row').nth(5)).toContainText('Company create');
    const logLines = await exportCsv('logs');
    expect(logLines[0]).toContain('Who');
    expect(logLines).toHaveLength(16);
    expect(logLines.filter((l) => l.includes('company.create'))).toHaveLength(12);
  });

  test("plan group: made in the editor and assigned, the company's wizard offers only its plans; the log shows it", async ({ page, browser }) => {
    const owner = await customer(browser, 'grouped');
    await asAdmin(page);
    await page.goto('/#/admin/plan-groups');
    await page.getByRole('button', { name: 'New plan group' }).click();
    const name = `Partners ${Date.now()}`;
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/#\/admin\/plan-groups\/[0-9a-f-]+\/editor$/);
    await page.getByRole('checkbox', { name: 'Free (v3.mau_500_gcp.base)' }).check();
    await page.getByRole('checkbox', { name: 'Basic (v3.mau_5_000_gcp.base)' }).check();
    await page.getByLabel('Add a company').fill(owner.companyName);
    await page.getByRole('option', { name: owner.companyName }).click();
    await expect(page.getByRole('table', { name: 'Companies in this group' })).toContainText(owner.companyName);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await expect(page.getByText('2 chosen')).toBeVisible();
    await adminShots(page, 'plan-group-editor');

    await owner.page.goto(`/#/c/${owner.cid}/p/${owner.pid}/server-builder/choose-plan`);
    const plans = owner.page.getByRole('button', { name: /^(Free|Starter|Basic|Growth|Team|Pro) \d/ });
    await expect(plans).toHaveCount(2);
    await expect(owner.page.getByRole('button', { name: /^Basic \d/ })).toBeVisible();
    await expect(owner.page.getByRole('button', { name: /^Starter \d/ })).toHaveCount(0);
    await owner.context.close();

    await page.goto('/#/admin/plan-groups');
    await expect(page.getByRole('link', { name })).toBeVisible();
    await adminShots(page, 'plan-groups-list');

    await page.goto('/#/admin/logs');
    await page.getByLabel('Target type').selectOption('planGroup');
    await expect(page.getByRole('table', { name: 'Logs' }).getByRole('cell', { name: 'Plan group update' }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Show planGroup.update' }).first().click();
    await expect(page.getByRole('dialog')).toContainText('planIds');
    await page.getByRole('button', { name: 'Close' }).click();
    await adminShots(page, 'logs');
  });

  test('a non-admin who types an admin path lands on /loading', async ({ browser }) => {
    const user = await customer(browser, 'nosy');
    // /loading is passed through quickly once the session is known: record every address the tab shows.
    const seen: string[] = [];
    user.page.on('framenavigated', (frame) => {
      if (frame === user.page.mainFrame()) seen.push(new URL(frame.url()).hash);
    });
    for (const path of ['/admin/users', '/admin/plan-groups/123/editor']) {
      seen.length = 0;
      await user.page.goto(`/#${path}`);
      await expect.poll(() => seen.includes('#/loading'), { message: `${path} passes through /loading` }).toBe(true);
      await expect(user.page).not.toHaveURL(/#\/admin/);
      await expect(user.page.getByRole('heading', { name: 'Plan groups' })).toHaveCount(0);
    }
    expect((await user.page.request.get('/api/v1/admin/companies')).status()).toBe(403);
    await user.context.close();
  });
});
