import type { Page } from '@playwright/test';
import { expect, SCREEN, signInAs, test } from './fixtures';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** A 1×1 PNG: the smallest real image the server's sniffing accepts. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface Company {
  _id: string;
  name: string;
  projects: { _id: string }[];
}

/**
 * A verified account with a first company, made through the API with the page's own cookie jar,
 * so the browser is signed in as that person afterwards.
 */
async function newAccount(page: Page, tag: string, companyName: string) {
  const email = newEmail(tag);
  const signUp = await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } });
  expect(signUp.status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const company = await createCompany(page, companyName, true);
  return { email, company };
}

async function createCompany(page: Page, name: string, onboarding = false): Promise<Company> {
  const res = await page.request.post(`/api/v1/companies${onboarding ? '?onboarding=1' : ''}`, { data: { name } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { payload: Company }).payload;
}

/** Picks a file as a person would: the button opens the browser's file chooser. */
async function chooseLogo(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

const nameField = (page: Page) => page.getByRole('textbox', { name: 'Company name' });

async function switcherItems(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** Nothing sticks out sideways on a phone. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
}

test.describe('management', () => {
  test('company settings: rename shows in the switcher, billing country is saved, logo is uploaded and removed', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    const suffix = String(Date.now()).slice(-6);
    const { company } = await newAccount(page, 'rename', `Analytical ${suffix}`);
    await page.goto('/#/management');
    await expect(page).toHaveURL(/#\/management\/company$/);
    await expect(nameField(page)).toHaveValue(`Analytical ${suffix}`);
    await expect(page.getByTestId('current-company')).toHaveText(`Analytical ${suffix}`);

    // The shared rule refuses a URL before anything is sent.
    await nameField(page).fill('Visit www.spam');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(nameField(page)).toHaveAccessibleDescription(/A URL is not allowed here/);

    await nameField(page).fill(`Engines ${suffix}`);
    await page.getByLabel('Billing country').selectOption({ label: 'Germany' });
    await expect(page.getByText('The billing country sets the tax on your orders.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Company settings saved.')).toBeVisible();
    await expect(page.getByTestId('current-company')).toHaveText(`Engines ${suffix}`);
    const menu = await switcherItems(page);
    await expect(menu.getByRole('menuitem', { name: `Engines ${suffix}` })).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Escape');

    await page.reload();
    await expect(nameField(page)).toHaveValue(`Engines ${suffix}`);
    await expect(page.getByLabel('Billing country')).toHaveValue('DE');
    const stored = (await (await page.request.get(`/api/v1/companies/${company._id}`)).json()) as { payload: { name: string; billingCountry: string } };
    expect(stored.payload).toMatchObject({ name: `Engines ${suffix}`, billingCountry: 'DE' });

    // Too big is refused in the browser, before any upload.
    await chooseLogo(page, 'Upload logo', { name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]) });
    await expect(page.getByRole('alert')).toHaveText('The file is too big (1 MB at most).');

    await chooseLogo(page, 'Upload logo', { name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect(page.getByText('The new logo is saved with the form.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Company settings saved.').first()).toBeVisible();
    const logo = page.getByRole('img', { name: `Logo of Engines ${suffix}` });
    await expect(logo).toHaveAttribute('src', /^\/api\/v1\/files\//);
    const logoUrl = (await logo.getAttribute('src')) ?? '';
    const served = await page.request.get(logoUrl);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    await page.screenshot({ path: '/tmp/management-company-1440.png', fullPage: true });

    await page.setViewportSize(SCREEN.phone);
    await expect(page.getByTestId('current-company')).toBeHidden();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: '/tmp/management-company-390.png', fullPage: true });

    await page.getByRole('button', { name: 'Remove logo' }).click();
    await expect(page.getByText('The logo is removed when you save.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('button', { name: 'Remove logo' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upload logo' })).toBeVisible();
    expect((await page.request.get(logoUrl)).status()).toBe(404);
  });

  test('team: an invited teammate joins and shows up by the 10 s refresh; a viewer cannot invite', async ({ page, request }) => {
    await page.setViewportSize(SCREEN.wide);
    const suffix = String(Date.now()).slice(-6);
    const { company } = await newAccount(page, 'team-owner', `Team ${suffix}`);
    await page.goto('/#/management/team');
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByRole('cell', { name: 'Ada Lovelace (you)', exact: true })).toBeVisible();
    await expect(page.getByText('No open invitations')).toBeVisible();

    const invitee = newEmail('invitee');
    await page.getByRole('textbox', { name: 'Email' }).fill(invitee);
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();
    const invitations = page.getByRole('table', { name: 'Invitations' });
    await expect(invitations.getByRole('cell', { name: invitee, exact: true })).toBeVisible();
    await expect(invitations.getByText('Pending')).toBeVisible();
    await page.screenshot({ path: '/tmp/management-team-1440.png', fullPage: true });
    await page.setViewportSize(SCREEN.phone);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: '/tmp/management-team-390.png', fullPage: true });
    await page.setViewportSize(SCREEN.wide);

    // The invitee accepts through the API (the invited sign-up page is tested elsewhere).
    const mail = await waitForMail(invitee, 'invited you');
    const accepted = await request.post('/api/v1/companies/users/invited', {
      data: { token: tokenOf(mail.link), firstName: 'Vivian', lastName: 'Ewer', designation: 'dev', password: PASSWORD },
    });
    expect(accepted.status()).toBe(201);
    // No reload: the page's own refresh brings the new member in.
    await expect(members.getByRole('cell', { name: 'Vivian Ewer', exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('No open invitations')).toBeVisible();

    // The viewer: no invite form, read-only company, and the API refuses an invitation.
    await page.context().clearCookies();
    await page.goto('about:blank');
    await signInAs(page, invitee, PASSWORD);
    await page.goto('/#/management/team');
    await expect(members.getByRole('cell', { name: 'Vivian Ewer (you)', exact: true })).toBeVisible();
    await expect(page.getByText('You are a viewer in this company. Only workspace admins can change it.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    const refused = await page.request.post(`/api/v1/companies/${company._id}/invitations`, { data: { email: newEmail('nope'), role: 'admin' } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('ROLE_REQUIRED');
    await page.getByRole('tab', { name: 'Company' }).click();
    await expect(nameField(page)).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete company' })).toHaveCount(0);
  });

  test('the company switcher switches, and /c/{cid}/p/{pid}/management/company selects that company', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    const suffix = String(Date.now()).slice(-6);
    const { company: alpha } = await newAccount(page, 'switch', `Alpha ${suffix}`);
    const zulu = await createCompany(page, `Zulu ${suffix}`);
    await page.goto('/#/dashboard');
    await expect(page.getByTestId('current-company')).toHaveText(`Alpha ${suffix}`);
    let menu = await switcherItems(page);
    const companies = menu.getByRole('menuitem').filter({ hasText: suffix });
    await expect(companies).toHaveText([`Alpha ${suffix}`, `Zulu ${suffix}`]);
    await expect(companies.first()).toHaveAttribute('aria-current', 'true');
    await page.screenshot({ path: '/tmp/management-switcher-1440.png', animations: 'disabled' });
    await menu.getByRole('menuitem', { name: `Zulu ${suffix}` }).click();
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(page.getByText(`Switched to Zulu ${suffix}`)).toBeVisible();
    await expect(page.getByTestId('current-company')).toHaveText(`Zulu ${suffix}`);
    await page.goto('/#/management/company');
    await expect(nameField(page)).toHaveValue(`Zulu ${suffix}`);

    // The choice outlives a reload.
    await page.reload();
    await expect(nameField(page)).toHaveValue(`Zulu ${suffix}`);

    await page.goto(`/#/c/${alpha._id}/p/${alpha.projects[0]?._id}/management/company`);
    await expect(nameField(page)).toHaveValue(`Alpha ${suffix}`);
    await expect(page.getByTestId('current-company')).toHaveText(`Alpha ${suffix}`);
    menu = await switcherItems(page);
    await expect(menu.getByRole('menuitem', { name: `Alpha ${suffix}` })).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Escape');

    // A company the user does not belong to is ignored.
    await page.goto(`/#/c/00000000-0000-4000-8000-000000000000/p/${zulu.projects[0]?._id}/management/company`);
    await expect(nameField(page)).toHaveValue(`Alpha ${suffix}`);

    await page.setViewportSize(SCREEN.phone);
    // The three sections fit beside the logo and the user menu, with no hidden overflow.
    const nav = page.getByRole('navigation');
    expect(await nav.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    menu = await switcherItems(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: '/tmp/management-switcher-390.png', animations: 'disabled' });
    await page.keyboard.press('Escape');
  });

  test('deleting a company takes the mailed 5-digit code; the last one leads back to onboarding', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    const suffix = String(Date.now()).slice(-6);
    const { email, company: keep } = await newAccount(page, 'delete', `Keeper ${suffix}`);
    const doomed = await createCompany(page, `Doomed ${suffix}`);
    await page.goto(`/#/c/${doomed._id}/p/${doomed.projects[0]?._id}/management/company`);
    await expect(nameField(page)).toHaveValue(`Doomed ${suffix}`);

    await page.getByRole('button', { name: 'Delete company' }).click();
    await expect(page.getByRole('alertdialog', { name: `Delete Doomed ${suffix}?` })).toBeVisible();
    await page.getByRole('button', { name: 'Mail me the code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter the deletion code' });
    await expect(dialog).toBeVisible();
    const mail = await waitForMail(email, 'delete a company');
    const code = /\b(\d{5})\b/.exec(mail.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{5}$/);
    const cells = dialog.getByRole('group', { name: 'Deletion code' }).getByRole('textbox');
    await expect(cells).toHaveCount(5);
    await page.screenshot({ path: '/tmp/management-delete-390.png' });

    await cells.first().click();
    await page.keyboard.type(code === '00000' ? '11111' : '00000');
    await expect(dialog.getByRole('alert')).toHaveText('The verification code is invalid.');
    for (const cell of await cells.all()) await expect(cell).toHaveValue('');
    await expect(cells.first()).toBeFocused();
    await page.keyboard.type(code);
    await expect(page).toHaveURL(/#\/dashboard$/);
    await expect(page.getByText(`Doomed ${suffix} was deleted.`)).toBeVisible();
    expect((await page.request.get(`/api/v1/companies/${doomed._id}`)).status()).toBe(403);
    const menu = await switcherItems(page);
    await expect(menu.getByRole('menuitem', { name: `Doomed ${suffix}` })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: `Keeper ${suffix}` })).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Escape');

    // The last company: afterwards onboarding asks for a new one.
    await page.goto('/#/management/company');
    await expect(nameField(page)).toHaveValue(`Keeper ${suffix}`);
    await page.getByRole('button', { name: 'Delete company' }).click();
    await page.getByRole('button', { name: 'Mail me the code' }).click();
    const second = await waitForMail(email, 'delete a company', 1);
    const secondCode = /\b(\d{5})\b/.exec(second.text)?.[1] ?? '';
    await page.getByRole('dialog', { name: 'Enter the deletion code' }).getByRole('textbox').first().click();
    await page.keyboard.type(secondCode);
    await expect(page).toHaveURL(/#\/account\/company$/);
    expect((await page.request.get(`/api/v1/companies/${keep._id}`)).status()).toBe(403);
  });
});
