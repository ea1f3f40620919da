import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { admin, expect, SCREEN, signInAs, test, watchFirstScreen } from './fixtures';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const SCREENS = process.env.SCREENSHOT_DIR ?? 'test-results/screens';

/**
 * The admin (who owns 'Beacon Ops') invites `email` through the API in a separate cookie jar, so
 * the page stays a fresh visitor. Returns the mailed link.
 */
async function inviteAs(request: APIRequestContext, email: string, role: 'admin' | 'viewer' = 'viewer') {
  const { email: adminEmail, password } = admin();
  expect((await request.post('/api/v1/auth/signin', { data: { email: adminEmail, password } })).ok()).toBe(true);
  const me = (await (await request.get('/api/v1/auth/me')).json()) as { payload: { companies: { _id: string; name: string }[] } };
  const company = me.payload.companies.find((c) => c.name === 'Beacon Ops');
  expect(company).toBeTruthy();
  const invited = await request.post(`/api/v1/companies/${company?._id ?? ''}/invitations`, { data: { email, role } });
  expect(invited.ok()).toBe(true);
  const mail = await waitForMail(email, 'invited you');
  expect(mail.link).toContain('/#/account/invited?token=');
  return mail.link;
}

async function fillInvitedForm(page: Page, { first = 'Grace', last = 'Hopper', password = PASSWORD } = {}) {
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Your role').selectOption('dev');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the privacy policy').check();
}

async function signInForm(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function companiesInMenu(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

test.describe('invited sign-up', () => {
  test('an invited person signs up from the mailed link, then signs in as a member and is in the team', async ({ page, browser, playwright, baseURL }) => {
    const adminApi = await playwright.request.newContext({ baseURL });
    const email = newEmail('invitee');
    const link = await inviteAs(adminApi, email);

    await page.setViewportSize(SCREEN.phone);
    await page.goto(link);
    await expect(page.getByText('You are invited to Beacon Ops. You join as a workspace viewer.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');
    await page.screenshot({ path: join(SCREENS, 'invited-390.png'), fullPage: true });

    // SPEC §5: invited names need 3 characters; both boxes are required.
    await page.getByLabel('First name').fill('Al');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription('Use 3 to 64 characters.');
    await expect(page.getByRole('checkbox', { name: 'I accept the terms of service' })).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot({ path: join(SCREENS, 'invited-errors-390.png'), fullPage: true });

    await page.setViewportSize(SCREEN.wide);
    await fillInvitedForm(page);
    await page.screenshot({ path: join(SCREENS, 'invited-1440.png'), fullPage: true });
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(page.getByText('Invitation accepted')).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'invited-accepted-1440.png') });
    await expect(page).toHaveURL(/#\/account\/signin\?email=/);
    // Sign-in has the invited email filled in: only the password is left to type.
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);

    await signInForm(page, email, PASSWORD);
    // The link proved the email: no verify step, and the company is there already.
    await expect(page).toHaveURL(/#\/dashboard/);
    const menu = await companiesInMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'Beacon Ops' })).toBeVisible();
    // SPEC §2: the affiliate program opens externally from the user menu.
    await expect(menu.getByRole('menuitem', { name: 'Affiliate program' })).toHaveAttribute('href', 'https://partners.example.com/beacon');
    await page.keyboard.press('Escape');

    // The admin sees the new member in the team, as a viewer.
    const adminContext = await browser.newContext({ baseURL });
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, admin().email, admin().password);
    await adminPage.goto('/#/management/team');
    const row = adminPage.getByRole('row', { name: new RegExp(email) });
    await expect(row).toContainText('Grace Hopper');
    await expect(row).toContainText('Viewer');
    await adminContext.close();

    // The link works once.
    await page.context().clearCookies();
    await page.goto('about:blank');
    await page.goto(link);
    await expect(page).toHaveURL(/#\/account\/signin\?error=invalid-invitation$/);
    await expect(page.getByText('This invitation link is invalid or has expired.')).toBeVisible();
    await adminApi.dispose();
  });

  test('without a token the page goes to sign-in with the invalid-invitation message', async ({ page }) => {
    await page.goto('/#/account/invited');
    await expect(page).toHaveURL(/#\/account\/signin\?error=invalid-invitation$/);
    await expect(page.getByText('This invitation link is invalid or has expired.')).toBeVisible();
    await page.goto('/#/account/invited?token=not-a-real-token');
    await expect(page).toHaveURL(/#\/account\/signin\?error=invalid-invitation$/);
  });

  test('the link names the company before the app has loaded, and the page checks the token once', async ({ page, playwright, baseURL }) => {
    const adminApi = await playwright.request.newContext({ baseURL });
    const link = await inviteAs(adminApi, newEmail('first-screen'));
    await page.setViewportSize(SCREEN.phone);
    const checks: string[] = [];
    page.on('request', (request) => void (request.url().endsWith('/api/v1/companies/users/check-invited') && checks.push(request.method())));

    // The app's scripts held back: the first screen alone, with the invitation's details filled in.
    const appScripts = /\/assets\/(?!first-screen-).*\.js$/;
    await page.route(appScripts, (route) => route.abort());
    await page.goto(link);
    await expect(page.getByText('You are invited to Beacon Ops. You join as a workspace viewer.')).toBeVisible();
    await expect(page.getByText('Checking your invitation')).toBeVisible();
    expect(checks).toEqual(['POST']);
    await page.screenshot({ path: join(SCREENS, 'invited-first-screen-390.png') });

    // With the app: it takes that answer over and shows the form, without a second check.
    await page.unroute(appScripts);
    checks.length = 0;
    await page.goto('about:blank');
    const firstScreen = await watchFirstScreen(page);
    await page.goto(link);
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
    await expect(page.getByText('You are invited to Beacon Ops. You join as a workspace viewer.')).toBeVisible();
    // The first screen, intro included, is the page's own: hydrated, not built again.
    expect(await firstScreen.kept()).toBe(true);
    expect(firstScreen.reported).toEqual([]);
    expect(checks).toEqual(['POST']);
    await adminApi.dispose();
  });

  test('a verified account signs in from the invitation and joins with one click', async ({ page, playwright, baseURL }) => {
    const email = newEmail('existing');
    expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
    const verify = await waitForMail(email, 'Verify');
    expect((await page.request.post('/api/v1/auth/verify', { data: { token: new URL(verify.link.replace('/#/', '/')).searchParams.get('token') } })).ok()).toBe(true);
    await page.context().clearCookies();

    const adminApi = await playwright.request.newContext({ baseURL });
    const link = await inviteAs(adminApi, email, 'admin');
    await page.setViewportSize(SCREEN.wide);
    await page.goto(link);
    await expect(page.getByText('An account with this email already exists. Sign in to it')).toBeVisible();
    await expect(page.getByText('You are invited to Beacon Ops. You join as a workspace admin.')).toBeVisible();
    // The link alone proves the mailbox, not the account: no password form here.
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: join(SCREENS, 'invited-existing-1440.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in to join' }).click();
    await expect(page.getByText('Sign in to the invited account; you will then join the company.')).toBeVisible();
    await signInForm(page, email, PASSWORD);

    // Back on the invitation, signed in as the invited account.
    await expect(page.getByText(`You are signed in as ${email}. Join Beacon Ops with this account.`)).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'invited-existing-signed-in-1440.png'), fullPage: true });
    await page.getByRole('button', { name: 'Join Beacon Ops' }).click();
    await expect(page.getByText('Invitation accepted')).toBeVisible();
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/#\/dashboard/);
    const me = (await (await page.request.get('/api/v1/auth/me')).json()) as { payload: { firstName: string; companies: { name: string }[] } };
    expect(me.payload.firstName).toBe('Ada');
    expect(me.payload.companies.map((c) => c.name)).toContain('Beacon Ops');
    await adminApi.dispose();
  });

  test('an account someone registered but never verified is claimed by the person who accepts', async ({ page, playwright, baseURL }) => {
    const email = newEmail('squatted');
    expect((await page.request.post('/api/v1/users', { data: { firstName: 'Mal', lastName: 'Lory', email, password: 'Squatter#Pass1' } })).status()).toBe(201);
    await page.context().clearCookies();

    const adminApi = await playwright.request.newContext({ baseURL });
    const link = await inviteAs(adminApi, email);
    await page.setViewportSize(SCREEN.phone);
    await page.goto(link);
    await expect(page.getByText('You are invited to Beacon Ops. You join as a workspace viewer.')).toBeVisible();
    await expect(page.getByText('An account with this email already exists.')).toHaveCount(0);
    await fillInvitedForm(page, { first: 'Grace', last: 'Owner', password: 'Owner#Pass42' });
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(page.getByText('Invitation accepted')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in now' }).click();

    await signInForm(page, email, 'Squatter#Pass1');
    await expect(page.getByRole('alert')).toContainText('The email or password is wrong.');
    await signInForm(page, email, 'Owner#Pass42');
    await expect(page).toHaveURL(/#\/dashboard/);
    await adminApi.dispose();
  });
});
