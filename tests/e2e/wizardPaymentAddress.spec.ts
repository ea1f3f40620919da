import type { Browser, Page } from '@playwright/test';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

/**
 * The payment step's address names the server it pays for: opened in a new tab (nothing in that
 * tab's storage, the session cookie only) it shows that server's payment, and an address that
 * can't be paid says why, with the way on. Also the words around an unpaid order.
 */
const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const SHOTS = 'test-results/screens/wizard-payment-address';
/** The server a payment address names. */
const serverOf = (address: string) => new URL(address.replace('/#/', '/')).searchParams.get('deploymentId') ?? '';

interface Account {
  email: string;
  cid: string;
  pid: string;
}

/** A verified account with a company and its first project, signed in in this page's cookie jar. */
async function newAccount(page: Page, tag: string): Promise<Account> {
  const email = newEmail(tag);
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: `Company ${tag}` } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { email, cid: company._id, pid: company.projects[0]?._id ?? '' };
}

const next = (page: Page) => page.getByTestId('wizard-footer').getByRole('button', { name: /^(Next|Continue)$/ });
const plan = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name} \\d`) });
const summary = (page: Page) => page.getByRole('region', { name: 'Order summary' });
const unavailable = (page: Page) => page.getByTestId('payment-unavailable');

/** Orders a Starter server named `name` through the wizard, up to its payment step; answers the payment address. */
async function orderToPayment(page: Page, a: Account, name: string): Promise<string> {
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/choose-plan`);
  await expect(plan(page, 'Starter')).toHaveAttribute('aria-pressed', 'true');
  for (const step of ['choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
    await next(page).click();
    await expect(page).toHaveURL(new RegExp(step));
  }
  await page.getByLabel('Server name').fill(name);
  await next(page).click();
  await expect(page).toHaveURL(/server-builder\/payment-details\?deploymentId=/);
  await expect(summary(page)).toContainText(name);
  return page.url();
}

async function pay(page: Page) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('12/39');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: 'Pay and create server' }).click();
}

async function shots(page: Page, name: string) {
  for (const [label, size] of Object.entries(SCREEN)) {
    await page.setViewportSize(size);
    await expect(page.locator('main')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(SCREEN.wide);
}

const contextOf = (browser: Browser) => browser.newContext({ baseURL: process.env.BASE_URL, viewport: SCREEN.wide });

test.describe('the payment address', () => {
  test('opened in a new tab, signed in, shows that server’s payment; paid, it says there is nothing to pay', async ({ page, context }) => {
    const a = await newAccount(page, 'paddr');
    const address = await orderToPayment(page, a, 'Tab Server');
    const id = serverOf(address);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // What the first tab shows for the order: its name, lines, tax and total.
    const shown = await summary(page).innerText();
    expect(shown).toMatch(/\$\d+\.\d\d\/month/);

    // A new page of the same browser: the cookie, and nothing of the first tab's wizard.
    const other = await context.newPage();
    await other.goto(address);
    await expect(other).toHaveURL(new RegExp(`payment-details\\?deploymentId=${id}$`));
    await expect(summary(other)).toContainText('Tab Server');
    await expect(summary(other).getByText('Starter (base tier)')).toBeVisible();
    await expect(summary(other)).toHaveText(shown, { useInnerText: true });
    await expect(other.getByRole('navigation', { name: 'Steps' }).locator('[aria-current="step"]')).toHaveText(/Payment/);
    await expect(other.getByRole('form', { name: 'Card payment' })).toBeVisible();
    await shots(other, 'new-tab-payment');

    // Unpaid, the servers list says what it waits for.
    const list = await context.newPage();
    await list.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
    const row = list.getByTestId('deployment-row').filter({ hasText: 'Tab Server' });
    await expect(row.getByTestId('deployment-status')).toHaveText('Waiting for payment');
    await expect(row.getByTestId('subscription-status')).toHaveCount(0);
    await shots(list, 'waiting-for-payment');

    await pay(other);
    await expect(other).toHaveURL(/server-builder\/success/);
    await expect(other.getByText('Tab Server is ordered')).toBeVisible();

    // The same address once paid: nothing to pay, and the way to the servers.
    const again = await context.newPage();
    await again.goto(address);
    await expect(unavailable(again)).toContainText('Nothing to pay');
    await expect(unavailable(again)).toContainText('Tab Server is paid already');
    await shots(again, 'paid-already');
    await again.getByRole('link', { name: 'Go to your servers' }).click();
    await expect(again).toHaveURL(new RegExp(`/c/${a.cid}/p/${a.pid}/deployments$`));
  });

  test('a bad or foreign id says why there is nothing to pay, with the way on', async ({ page, browser }) => {
    const a = await newAccount(page, 'pbad');
    const builder = `/#/c/${a.cid}/p/${a.pid}/server-builder/payment-details`;
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'not-a-server']) {
      await page.goto(`${builder}?deploymentId=${bad}`);
      await expect(unavailable(page)).toContainText('This payment cannot be opened');
      await expect(unavailable(page)).toContainText('There is no server to pay for at this address');
      // Not sent to the first step with a new order: the address stays, and no card form shows.
      await expect(page).toHaveURL(/payment-details\?deploymentId=/);
      await expect(page.getByRole('form', { name: 'Card payment' })).toHaveCount(0);
    }
    await shots(page, 'bad-id');
    await page.getByRole('link', { name: 'Go to your servers' }).click();
    await expect(page).toHaveURL(/\/deployments$/);

    // Another company's unpaid server.
    const elsewhere = await contextOf(browser);
    try {
      const stranger = await elsewhere.newPage();
      const b = await newAccount(stranger, 'pforeign');
      const address = await orderToPayment(stranger, b, 'Not Yours');
      const foreign = serverOf(address);
      await page.goto(`${builder}?deploymentId=${foreign}`);
      await expect(unavailable(page)).toContainText('belongs to a company you are not a member of');
      await expect(page.getByText('Not Yours')).toHaveCount(0);
    } finally {
      await elsewhere.close();
    }
  });

  test('a visitor’s order counts the same steps before and after signing up', async ({ browser }) => {
    const visitor = await contextOf(browser);
    try {
      const page = await visitor.newPage();
      await page.goto('/#/get-started/choose-plan');
      await expect(plan(page, 'Starter')).toHaveAttribute('aria-pressed', 'true');
      const progress = page.getByRole('navigation', { name: 'Steps' });
      await expect(progress.getByRole('listitem')).toHaveText(['1Plan', '2Region', '3Account', '4Payment']);
      await next(page).click();
      await next(page).click();
      await expect(page).toHaveURL(/get-started\/complete-setup/);
      await page.setViewportSize(SCREEN.phone);
      await expect(page.getByText('Step 3 of 4: Account')).toBeVisible();
      await page.setViewportSize(SCREEN.wide);
      // The wide layout has taken over (the form re-renders with it) before anything is typed.
      await expect(progress.getByRole('listitem')).toHaveText(['1Plan', '2Region', '3Account', '4Payment']);
      const email = newEmail('psteps');
      await page.getByLabel('First name').fill('Grace');
      await page.getByLabel('Last name').fill('Hopper');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('I accept the terms of service').check();
      await page.getByLabel('I accept the privacy policy').check();
      await page.getByRole('button', { name: 'Create account' }).click();
      const mail = await waitForMail(email, 'Verify');
      await page.goto(mail.link.replace(/^https?:\/\/[^/]+/, ''));
      await expect(page).toHaveURL(/account\/company/);
      await page.getByLabel('Company name').fill('Steps Co');
      await page.getByLabel('Your role').selectOption('dev');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/server-builder\/payment-details\?deploymentId=/, { timeout: 20_000 });
      await expect(progress.getByRole('listitem')).toHaveText(['1Plan', '2Region', '3Account', '4Payment']);
      await page.setViewportSize(SCREEN.phone);
      await expect(page.getByText('Step 4 of 4: Payment')).toBeVisible();
      await shots(page, 'visitor-payment-step');
    } finally {
      await visitor.close();
    }
  });

  test('the front door leads to the plans and prices', async ({ browser }) => {
    const visitor = await contextOf(browser);
    try {
      const page = await visitor.newPage();
      for (const path of ['/#/account/create', '/#/account/signin']) {
        await page.goto(path);
        await expect(page.getByRole('link', { name: 'Plans and pricing' })).toBeVisible();
      }
      await shots(page, 'front-door-pricing-link');
      await page.getByRole('link', { name: 'Plans and pricing' }).click();
      await expect(page).toHaveURL(/#\/pricing$/);
    } finally {
      await visitor.close();
    }
  });
});
