import type { Page } from '@playwright/test';
import { expect, openSignIn, SCREEN, signInAs, test } from './fixtures';
import { countMails, waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;

/** A fresh page load without cookies: what a new visitor's browser has. */
async function freshVisit(page: Page) {
  await page.context().clearCookies();
  await page.goto('about:blank');
}

async function signUp(page: Page, email: string) {
  await page.goto('about:blank');
  await page.goto('/#/account/create');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the privacy policy').check();
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function signInForm(page: Page, email: string, password: string) {
  await openSignIn(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.describe('accounts, end to end with real mail', () => {
  test('sign up, verify from the mail, name the company, stay signed in, sign out', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    const email = newEmail('signup');
    await signUp(page, email);
    // Sign-up signs nobody in: it asks to open the mailed link, whether or not the address was taken.
    await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
    await expect(page).toHaveURL(/#\/account\/create/);
    await page.screenshot({ path: 'test-results/screens/signup-mail-sent-1440.png' });

    const mail = await waitForMail(email, 'Verify');
    expect(mail.link).toContain('/#/account/verify?token=');
    await page.goto(mail.link);
    await expect(page).toHaveURL(/#\/account\/company/);
    await page.getByLabel('Company name').fill('Visit www.spam');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('textbox', { name: 'Company name' })).toHaveAccessibleDescription(/A URL is not allowed here/);
    await page.getByLabel('Company name').fill('Analytical Engines');
    await page.getByLabel('Company size').selectOption('11-50');
    await page.getByLabel('Your role').selectOption('founder');
    await page.screenshot({ path: 'test-results/screens/company-1440.png' });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/#\/dashboard/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Analytical Engines' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/#\/account\/create/);
    await page.goto('/#/dashboard');
    await expect(page).toHaveURL(/#\/account\/signin/);
  });

  test('sign-up shows each broken rule on its field, and a taken email gets the same answer as a new one', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    await page.goto('/#/account/create');
    await page.getByLabel('First name').fill('A');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription(/Use 2 to 64 characters/);
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(/Enter a valid email address/);
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot({ path: 'test-results/screens/signup-errors-390.png' });

    const taken = process.env.E2E_ADMIN_EMAIL ?? '';
    await signUp(page, taken);
    await expect(page.getByText(`We sent a link to ${taken}`)).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/signup-mail-sent-390.png' });
    const mail = await waitForMail(taken, 'already exists');
    expect(mail.link).toContain('/#/forgot-password?resetPassword=1&token=');
  });

  test('forgot password: the mailed link resets it; the old password is refused', async ({ page }) => {
    const email = newEmail('reset');
    await signUp(page, email);
    await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
    await freshVisit(page);

    await page.goto('/#/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Check your mail', { exact: true })).toBeVisible();
    const mail = await waitForMail(email, 'Reset');
    await page.goto(mail.link);
    await page.getByLabel('New password', { exact: true }).fill('Fresh#Start42');
    await page.getByLabel('Confirm new password').fill('Fresh#Start42');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page).toHaveURL(/#\/account\/signin/);

    await signInForm(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toContainText('The email or password is wrong.');
    await signInForm(page, email, 'Fresh#Start42');
    await expect(page).toHaveURL(/#\/account\/company/);

    // The link works once.
    await freshVisit(page);
    await page.goto(mail.link);
    await expect(page.getByRole('alert')).toContainText('The password reset code is invalid or has expired.');
  });

  test('five wrong passwords lock this device; the right one then says so; the mailed unlock link opens it', async ({ page }) => {
    const email = newEmail('lock');
    await signUp(page, email);
    await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
    await freshVisit(page);

    await openSignIn(page);
    await expect(page.getByRole('link', { name: 'Request an unlock link' })).toHaveCount(0);
    for (let i = 0; i < 5; i += 1) {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(`Wrong-pass${i}`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('alert')).toBeVisible();
    }
    // A guesser is told nothing new; only the right password learns of the lock.
    await expect(page.getByRole('alert')).toContainText('The email or password is wrong.');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Sign-in from this device is locked');
    await page.screenshot({ path: 'test-results/screens/signin-locked-1440.png' });
    await page.getByRole('link', { name: 'Request an unlock link' }).click();
    await expect(page).toHaveURL(/#\/request-unlock/);
    // Wait for the new page: until it renders, the sign-in form's Email field is still there.
    await expect(page.getByRole('heading', { name: 'Unlock your account' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send unlock link' }).click();
    await expect(page.getByText('Check your mail', { exact: true })).toBeVisible();
    const mail = await waitForMail(email, 'Unlock');
    await page.goto(mail.link);
    await expect(page).toHaveURL(/#\/account\/signin\?ref=unlocked/);
    await expect(page.getByText('Account unlocked. You can sign in now.')).toBeVisible();
    await signInForm(page, email, PASSWORD);
    // Signed in; the email is not verified yet, so onboarding asks for that first.
    await expect(page).toHaveURL(/#\/account\/verify/);
  });

  test('magic link: mailed, opened, signed in; opened again, refused', async ({ page }) => {
    const email = newEmail('magic');
    await signUp(page, email);
    await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
    await freshVisit(page);

    await openSignIn(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(page.getByText(`if an account exists for ${email}`)).toBeVisible();
    const mail = await waitForMail(email, 'sign-in link');
    expect(countMails(email, 'sign-in link')).toBe(1);
    await page.goto(mail.link);
    await expect(page).toHaveURL(/#\/account\/company/);

    await freshVisit(page);
    await page.goto(mail.link);
    await expect(page).toHaveURL(/#\/account\/signin/);
    await expect(page.getByText('This sign-in link is invalid or has expired.')).toBeVisible();
  });

  test('an admin lands on the dashboard with the admin banner', async ({ page }) => {
    await signInAs(page, process.env.E2E_ADMIN_EMAIL ?? '', process.env.E2E_ADMIN_PASSWORD ?? '');
    await expect(page.getByRole('link', { name: 'Open the admin area' })).toBeVisible();
  });
});
