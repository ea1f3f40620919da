import type { Page } from '@playwright/test';
import { admin, expect, SCREEN, signInAs, test, watchFirstScreen } from './fixtures';

/** A form's own check answers its empty submit: the page's handlers are attached. */
async function emptySubmitIsChecked(page: Page) {
  // The form's own submit button (on sign-in the last button is the passkey's, which needs no email).
  await page.locator('form button[type="submit"]').first().click();
  await expect(page.locator('input[aria-invalid="true"]').first()).toBeVisible();
}

test.describe('the application shell', () => {
  test('serves the app on / and sends #/ to sign-up in the welcome layout', async ({ page, request }) => {
    const res = await request.get('/');
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    await page.setViewportSize(SCREEN.wide);
    await page.goto('/#/');
    await expect(page).toHaveURL(/#\/account\/create$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
    await expect(page).toHaveTitle('Create your account · Beacon');
    // The marketing panel: built-in content with four brand logos.
    const panel = page.getByRole('complementary', { name: 'About Beacon' });
    await expect(panel.getByText('Product analytics you own')).toBeVisible();
    await expect(panel.getByRole('img')).toHaveCount(4);
    await page.screenshot({ path: 'test-results/screens/welcome-1440.png' });
  });

  test('hides the marketing panel on a phone', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    await page.goto('/#/account/signin');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('complementary')).toBeHidden();
    await page.screenshot({ path: 'test-results/screens/welcome-390.png' });
  });

  test('shows the not-found page for an unknown route, with the footer year', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    await page.goto('/#/no-such-page');
    await expect(page.getByRole('heading', { name: 'We could not find that page' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Beacon`);
    await expect(page).toHaveTitle('Page not found · Beacon');
    await page.screenshot({ path: 'test-results/screens/not-found-1440.png' });
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page).toHaveURL(/#\/account\/create$/);
  });

  test('sends a visitor to sign-in from a signed-in page, and back there after signing in', async ({ page }) => {
    await page.goto('/#/management');
    await expect(page).toHaveURL(/#\/account\/signin/);
    await page.getByLabel('Email').fill(admin().email);
    await page.getByLabel('Password', { exact: true }).fill(admin().password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/#\/management/);
  });

  test('loads the main layout lazily with the top navigation', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/#/account/create');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The front door does not download the react-admin app.
    expect(scripts.some((s) => s.includes('MainApp'))).toBe(false);
    await signInAs(page, admin().email, admin().password);
    await page.goto('/#/deployments');
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: 'Deployments' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Management' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Deployments' })).toBeVisible();
    expect(scripts.some((s) => s.includes('MainApp'))).toBe(true);
    await page.screenshot({ path: 'test-results/screens/main-1440.png' });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Profile settings' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  });

  test('marks the admin area with the Admin Mode label and shows admins the green banner', async ({ page }) => {
    await page.setViewportSize(SCREEN.wide);
    await signInAs(page, admin().email, admin().password);
    await expect(page.getByRole('link', { name: 'Open the admin area' })).toBeVisible();
    await page.goto('/#/admin');
    await expect(page).toHaveURL(/#\/admin\/companies$/);
    await expect(page.getByText('Admin Mode')).toBeVisible();
  });

  test('paints the front door before its scripts run, then the app takes the same page over', async ({ page }) => {
    await page.setViewportSize(SCREEN.phone);
    // The app's scripts held back: what shows is the prerendered first screen alone.
    const appScripts = /\/assets\/(?!first-screen-).*\.js$/;
    await page.route(appScripts, (route) => route.abort());
    await page.goto('/#/account/signin');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByText('Welcome back. Sign in to manage your servers.')).toBeVisible();
    // Nothing can be typed into a form that is about to be replaced.
    await expect(page.locator('#root')).toHaveAttribute('inert');
    expect(await page.locator('input[name="email"]').evaluate((input) => (input.focus(), document.activeElement === input))).toBe(false);
    await page.screenshot({ path: 'test-results/screens/first-screen-390.png' });
    // A redirecting address shows its target; an address with a query shows nothing in advance,
    // unless the query leaves the first screen as it is (an invitation's token).
    // (A new address differing only in its hash is no new load: each is loaded again.)
    await page.goto('/#/');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
    await page.goto('/#/account/signin?error=session-timed-out');
    await page.reload();
    await expect(page.locator('#root')).toBeEmpty();
    await page.goto('/#/account/invited?token=abc123');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Join your team' })).toBeVisible();
    await expect(page.getByText('Checking your invitation')).toBeVisible();
    await page.goto('/#/account/invited?token=abc123&error=x');
    await page.reload();
    await expect(page.locator('#root')).toBeEmpty();

    await page.unroute(appScripts);
    await page.goto('/#/forgot-password');
    await page.reload();
    // The app's own page, ready for input.
    await page.getByLabel('Email').fill('first@example.com');
    await expect(page.getByLabel('Email')).toHaveValue('first@example.com');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  });

  // Each front-door address, and a use of the page that only its own handlers answer.
  const LIVE: Record<string, (page: Page) => Promise<void>> = {
    '/account/signin': emptySubmitIsChecked,
    '/account/create': emptySubmitIsChecked,
    '/forgot-password': emptySubmitIsChecked,
    '/': emptySubmitIsChecked,
    '/pricing': async (page) => {
      await page.getByRole('button', { name: 'Yearly' }).click();
      await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
    },
    '/get-started': async (page) => {
      await page.getByRole('link', { name: 'Already have an account?' }).click();
      await expect(page).toHaveURL(/#\/account\/signin$/);
    },
  };
  for (const [address, use] of Object.entries(LIVE)) {
    test(`takes the first screen of ${address} over as it is: hydrated, not built again`, async ({ page }) => {
      await page.setViewportSize(SCREEN.phone);
      const firstScreen = await watchFirstScreen(page);
      await page.goto(`/#${address}`);
      expect(await firstScreen.kept()).toBe(true);
      expect(firstScreen.reported).toEqual([]);
      await use(page);
    });
  }
});
