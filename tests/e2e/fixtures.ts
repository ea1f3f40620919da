import { test as base, expect, type Page } from '@playwright/test';
import { routeGoogleScript } from './google';

/** Every test talks to the server globalSetup started. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the object pattern here.
  baseURL: async ({}, provide) => {
    await provide(process.env.BASE_URL);
  },
  // The product is configured for Google sign-in; every page gets the offline stand-in script.
  page: async ({ page }, provide) => {
    await routeGoogleScript(page);
    await provide(page);
  },
});
export { expect };

export const SCREEN = { phone: { width: 390, height: 844 }, wide: { width: 1440, height: 900 } } as const;

/**
 * Opens sign-in, ready for input. From another page of the app the address changes first and the
 * page follows once its module is loaded: until then the old page (sign-up has an Email field too)
 * is still there.
 */
export async function openSignIn(page: Page) {
  await page.goto('/#/account/signin');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
}

/** Signs in through the sign-in page, as a person would. */
export async function signInAs(page: Page, email: string, password: string) {
  await openSignIn(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/#\/(dashboard|account\/verify)/);
}

export const admin = () => ({ email: process.env.E2E_ADMIN_EMAIL ?? '', password: process.env.E2E_ADMIN_PASSWORD ?? '' });

/**
 * Watches the next load's prerendered first screen. `kept()` waits until the app has released it
 * (#root no longer inert) and answers whether its elements are still the ones on screen (the app
 * hydrated them) rather than built again; `reported` holds what React said of a mismatch.
 */
export async function watchFirstScreen(page: Page) {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (/react|hydrat/i.test(message.text())) reported.push(message.text());
  });
  await page.addInitScript(() => {
    // After the first-screen script (inline, in the body) and before the app's first render.
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { firstScreen?: Element | null }).firstScreen = document.querySelector('#root > *');
    });
  });
  return {
    reported,
    async kept(): Promise<boolean> {
      await expect(page.locator('#root')).not.toHaveAttribute('inert');
      return page.evaluate(() => {
        const first = (window as unknown as { firstScreen?: Element | null }).firstScreen;
        return Boolean(first?.isConnected) && document.querySelector('#root > *') === first;
      });
    },
  };
}
