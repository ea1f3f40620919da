import type { Page } from '@playwright/test';
import { totpNow } from '../support/totp';
import { expect, SCREEN, test } from './fixtures';
import { queueGoogleToken } from './google';

let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;

async function clickGoogle(page: Page, name: 'Sign in with Google' | 'Sign up with Google', email: string, claims: Parameters<typeof queueGoogleToken>[1] | null = null) {
  await queueGoogleToken(page, claims ?? { email });
  await page.getByRole('button', { name }).click();
}

async function signUpWithGoogle(page: Page, email: string) {
  await page.goto('/#/account/create');
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the privacy policy').check();
  await clickGoogle(page, 'Sign up with Google', email);
  await expect(page).toHaveURL(/#\/account\/company/);
  await page.getByLabel('Company name').fill('Googly Eyes');
  await page.getByLabel('Your role').selectOption('dev');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/#\/dashboard/);
}

test.describe('Google sign-up and sign-in (tokens signed by the test, checked by the server against a local JWKS)', () => {
  test('sign-up needs both agreements, then lands in onboarding and the dashboard; sign-in works after sign-out', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    const email = newEmail('google');
    await page.goto('/#/account/create');
    await expect(page.getByRole('button', { name: 'Sign up with Google' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/signup-google-390.png' });
    await clickGoogle(page, 'Sign up with Google', email);
    await expect(page.getByRole('alert')).toHaveText('Please accept the terms of service and the privacy policy.');
    await expect(page).toHaveURL(/#\/account\/create/);

    await signUpWithGoogle(page, email);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/#\/account\/create/);

    await page.setViewportSize(SCREEN.wide);
    await page.goto('/#/account/signin');
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/signin-google-1440.png' });
    await clickGoogle(page, 'Sign in with Google', email);
    await expect(page).toHaveURL(/#\/dashboard/);
  });

  test('refuses a token for another audience, an expired one and an unverified email; an unknown account is told to sign up', async ({ page }) => {
    const email = newEmail('google-bad');
    await page.goto('/#/account/signin');
    for (const claims of [
      { email, aud: 'someone-else.apps.googleusercontent.com' },
      { email, expiresIn: -600 },
      { email, email_verified: false },
    ]) {
      await clickGoogle(page, 'Sign in with Google', email, claims);
      await expect(page.getByRole('alert')).toHaveText('Google sign-in failed. Please try again.');
      await expect(page).toHaveURL(/#\/account\/signin/);
    }
    await clickGoogle(page, 'Sign in with Google', email);
    await expect(page.getByRole('alert')).toHaveText('No account uses this Google address yet. Sign up first.');
    // Nothing was created: sign-up from the same token still makes a new account.
    await page.goto('/#/account/create');
    await page.getByLabel('I accept the terms of service').check();
    await page.getByLabel('I accept the privacy policy').check();
    await clickGoogle(page, 'Sign up with Google', email, { email, expiresIn: -600 });
    await expect(page.getByRole('alert')).toHaveText('Google sign-in failed. Please try again.');
  });

  test('with two-factor sign-in on, Google sign-in asks for the code; a recovery code works once', async ({ page }) => {
    const email = newEmail('google-2fa');
    await signUpWithGoogle(page, email);
    // Two-factor is set up through the API here; the settings page has its own test.
    const { secret } = (await (await page.request.post('/api/v1/auth/2fa/initiate')).json()).payload;
    const enabled = await page.request.post('/api/v1/auth/2fa/enable', { data: { code: totpNow(secret) } });
    const { recoveryCodes } = (await enabled.json()).payload as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    await page.request.post('/api/v1/auth/signout');
    await page.context().clearCookies();

    const signInWithRecovery = async (code: string) => {
      await page.goto('/#/account/signin');
      await clickGoogle(page, 'Sign in with Google', email);
      await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
      await page.getByLabel('Recovery code').fill(code.slice(0, 6));
      await expect(signIn).toBeDisabled();
      // Typed without the dash, it is put in for the person.
      await page.getByLabel('Recovery code').fill(code.replace('-', '').toUpperCase());
      await expect(page.getByLabel('Recovery code')).toHaveValue(code);
      await signIn.click();
    };
    const [first] = recoveryCodes;
    await signInWithRecovery(first ?? '');
    await expect(page).toHaveURL(/#\/dashboard/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();

    await signInWithRecovery(first ?? '');
    await expect(page.getByRole('alert')).toContainText('code');
    await expect(page).not.toHaveURL(/#\/dashboard/);
  });
});
