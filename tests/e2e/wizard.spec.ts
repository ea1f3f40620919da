import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
let n = 0;
const newEmail = (tag: string) => `${tag}-${Date.now()}-${(n += 1)}@e2e.example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const SHOTS = 'test-results/screens/wizard';

interface Account {
  email: string;
  cid: string;
  pid: string;
}
interface Listed {
  _id: string;
  name: string;
  subscription: { planCode: string; planConfig: { region: string; features: string[] } };
  billing: { status: string; recurring: { amount: string }; cycle: string };
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

async function listed(page: Page, a: Account): Promise<Listed[]> {
  const res = await page.request.get(`/api/v1/deployments?company=${a.cid}&project=${a.pid}`);
  return ((await res.json()) as { payload: Listed[] }).payload;
}

const next = (page: Page) => page.getByTestId('wizard-footer').getByRole('button', { name: /^(Next|Continue)$/ });
const plan = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name} \\d`) });

/** Opens the wizard from Deployments, as a customer would. */
async function openWizard(page: Page, a: Account) {
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
  await page.getByRole('link', { name: 'Create server' }).click();
  await expect(page).toHaveURL(/server-builder\/choose-plan/);
  await expect(page.getByRole('heading', { name: 'Create Beacon Server' })).toBeVisible();
}

/** Next through region, core features and add-ons to the extras step. */
async function toExtras(page: Page) {
  for (const step of ['choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
    await next(page).click();
    await expect(page).toHaveURL(new RegExp(step));
  }
}

async function payWith(page: Page, card: string) {
  const form = page.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiry (MM/YY)').fill('12/39');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: 'Pay and create server' }).click();
}

/** A paid server made and paid through the API (for edit mode). */
async function paidServer(page: Page, a: Account, planCode: string) {
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const p = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === planCode);
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const body = { name: 'Edited Server', plan: p?._id, paymentCycle: 'month', planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, features: [f('domain.default'), f('retention.12m'), f('backup.daily')] }, paymentVendor: 'paddle', company: a.cid, project: a.pid, provider: 'gcp' };
  const res = await page.request.post('/api/v1/deployments?addProvisionSummary=1', { data: body, headers: { 'idempotency-key': randomUUID() } });
  expect(res.status()).toBe(201);
  const id = ((await res.json()) as { payload: { _id: string } }).payload._id;
  expect((await page.request.post(`/api/v1/payments/checkout/${id}/pay`, { data: { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  return id;
}

/** Nothing sticks out sideways and the footer (when shown) is inside the viewport. */
async function expectFits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const footer = page.getByTestId('wizard-footer');
  if (await footer.count()) {
    const box = await footer.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y + box.height <= viewport.height + 1 && box.y >= 0).toBe(true);
  }
}

test.describe('server wizard', () => {
  test('free order: serverCreated, then listed under Deployments', async ({ page }) => {
    const a = await newAccount(page, 'wfree');
    await openWizard(page, a);
    await plan(page, 'Free').click();
    await expect(page.getByTestId('wizard-total')).toHaveText('Free');
    await toExtras(page);
    await page.getByLabel('Server name').fill('Free Server');
    await next(page).click();
    await expect(page).toHaveURL(/server-builder\/success/);
    await expect(page.getByText('Your server is on its way')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to deployments' }).click();
    await expect(page.getByTestId('deployment-row').filter({ hasText: 'Free Server' })).toBeVisible();
    expect((await listed(page, a)).map((d) => d.billing.status)).toEqual(['active']);
  });

  test('paid order: stand-in card, serverCreated with an active subscription', async ({ page }) => {
    const a = await newAccount(page, 'wpaid');
    await openWizard(page, a);
    await expect(page.getByTestId('wizard-total')).toHaveText('$49/month');
    await page.getByRole('button', { name: 'Yearly', exact: true }).click();
    await expect(page.getByTestId('wizard-total')).toHaveText(/\/year$/);
    await page.getByRole('button', { name: 'Monthly', exact: true }).click();
    await toExtras(page);
    await next(page).click();
    await expect(page).toHaveURL(/payment-details/);
    await expect(page.getByTestId('wizard-footer')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Steps' }).locator('[aria-current="step"]')).toHaveText(/Payment/);
    await expect(page.getByText('Back to server configuration')).toBeVisible();
    await expect(page.getByText('Starter (base tier)')).toBeVisible();
    await payWith(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/server-builder\/success/);
    const [server] = await listed(page, a);
    expect(server?.billing.status).toBe('active');
    await page.getByRole('link', { name: 'Go to deployments' }).click();
    await expect(page.getByTestId('deployment-row').getByTestId('subscription-status')).toHaveText('Active');
  });

  test('declined card: the reason is shown, nothing becomes active, another card can be tried', async ({ page }) => {
    const a = await newAccount(page, 'wdecl');
    await openWizard(page, a);
    await toExtras(page);
    await next(page).click();
    await payWith(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toContainText('declined');
    expect((await listed(page, a)).map((d) => d.billing.status)).toEqual(['pending']);
    await payWith(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/server-builder\/success/);
  });

  test('double click and a second tab create one server', async ({ page, context }) => {
    const a = await newAccount(page, 'wdouble');
    await openWizard(page, a);
    await plan(page, 'Free').click();
    await toExtras(page);
    const other = await context.newPage();
    await other.goto(page.url().replace('choose-extras', 'choose-plan'));
    await plan(other, 'Free').click();
    await toExtras(other);
    await next(page).dblclick();
    await next(other).click();
    await expect(page).toHaveURL(/server-builder\/success/);
    await expect(other).toHaveURL(/server-builder\/success/);
    expect(await listed(page, a)).toHaveLength(1);
  });

  test('edit mode: an upgrade shows the prorated amount and changes the subscription', async ({ page }) => {
    const a = await newAccount(page, 'wedit');
    const id = await paidServer(page, a, 'v3.mau_1_000_gcp.base');
    await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/${id}/choose-plan`);
    await expect(page.getByRole('heading', { name: 'Update Beacon Server' })).toBeVisible();
    await plan(page, 'Basic').click();
    await toExtras(page);
    await next(page).click();
    const dialog = page.getByRole('dialog', { name: 'Review your change' });
    await expect(dialog.getByTestId('review-due-now')).toContainText(/Charged now .*\$\d+\.\d\d/);
    await dialog.getByRole('button', { name: 'Confirm change' }).click();
    await expect(page).toHaveURL(/success/);
    await expect(page.getByText('Your server was updated')).toBeVisible();
    const [server] = await listed(page, a);
    expect(server?.subscription.planCode).toBe('v3.mau_5_000_gcp.base');
    expect(server?.billing.status).toBe('active');
  });

  test('edit mode: a lower tier and a shorter retention are refused with the message', async ({ page }) => {
    const a = await newAccount(page, 'wdown');
    const id = await paidServer(page, a, 'v3.mau_5_000_gcp.base');
    await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/${id}/choose-plan`);
    await plan(page, 'Starter').click();
    await expect(page.getByRole('alert')).toContainText('A server cannot move to a lower tier.');
    await expect(next(page)).toBeDisabled();
    await plan(page, 'Basic').click();
    await expect(next(page)).toBeEnabled();
    await toExtras(page);
    await page.getByRole('button', { name: /^6 months/ }).click();
    await expect(page.getByRole('alert')).toContainText('Data retention cannot be downgraded.');
    await expect(next(page)).toBeDisabled();
    // And the server refuses it too, whatever the browser says.
    const plans = ((await (await page.request.get('/api/v1/plans/public')).json()) as { payload: { _id: string; code: string }[] }).payload;
    const [server] = await listed(page, a);
    const starter = plans.find((p) => p.code === 'v3.mau_1_000_gcp.base')?._id;
    const review = await page.request.post('/api/v1/deployments/generate-review', { data: { _id: id, plan: starter, paymentCycle: 'month', planConfig: server?.subscription.planConfig, paymentVendor: 'paddle' } });
    expect(review.status()).toBe(422);
    expect(((await review.json()) as { payload: { errors: Record<string, string[]> } }).payload.errors.plan?.[0]).toContain('lower tier');
  });

  test('pre-login: order, register, the mailed link, and the order goes through by itself', async ({ page }) => {
    const email = newEmail('wpre');
    await page.goto('/#/get-started');
    await expect(page).toHaveURL(/get-started\/choose-plan/);
    await expect(page.getByRole('link', { name: 'Already have an account?' })).toBeVisible();
    await plan(page, 'Free').click();
    await next(page).click();
    await expect(page).toHaveURL(/get-started\/choose-region/);
    await next(page).click();
    await expect(page).toHaveURL(/get-started\/complete-setup/);
    await expect(page.getByTestId('wizard-footer')).toHaveCount(0);
    // Where the visitor is, and what they are about to order, beside the account form.
    await expect(page.getByRole('navigation', { name: 'Steps' }).locator('[aria-current="step"]')).toHaveText(/Account/);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary).toContainText('(base tier)');
    await expect(summary).toContainText('Free');
    await page.setViewportSize(SCREEN.wide);
    await page.screenshot({ path: `${SHOTS}/complete-setup-1440.png`, fullPage: true });
    await page.setViewportSize(SCREEN.phone);
    await expect(page.getByText('Step 3 of 4: Account')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/complete-setup-390.png`, fullPage: true });
    await page.setViewportSize(SCREEN.wide);
    // The terms and the privacy policy are links, which the server sends on to the configured pages.
    await expect(page.getByRole('link', { name: 'terms of service' })).toHaveAttribute('href', '/legal/terms');
    await expect(page.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('target', '_blank');
    const terms = await page.request.get('/legal/terms', { maxRedirects: 0 });
    expect([terms.status(), terms.headers().location]).toEqual([302, 'https://legal.example.com/terms']);
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
    await page.getByLabel('Company name').fill('Pre-login Co');
    await page.getByLabel('Your role').selectOption('dev');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/server-builder\/success/, { timeout: 20_000 });
    const me = ((await (await page.request.get('/api/v1/auth/me')).json()) as { payload: { companies: { _id: string }[] } }).payload;
    const servers = await page.request.get(`/api/v1/deployments?company=${me.companies[0]?._id}`);
    expect(((await servers.json()) as { payload: Listed[] }).payload.map((d) => d.subscription.planCode)).toEqual(['v3.mau_500_gcp.base']);
  });

  test('pre-login: the mailed link opened on another device still submits the order', async ({ page, browser }) => {
    const email = newEmail('wdev');
    await page.goto('/#/get-started/choose-plan');
    await plan(page, 'Free').click();
    await next(page).click();
    await next(page).click();
    await expect(page).toHaveURL(/get-started\/complete-setup/);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('I accept the terms of service').check();
    await page.getByLabel('I accept the privacy policy').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    const mail = await waitForMail(email, 'Verify');
    // Another device: its own browser, nothing in storage, only the link.
    const phone = await browser.newContext({ baseURL: process.env.BASE_URL, viewport: SCREEN.phone });
    try {
      const other = await phone.newPage();
      await other.goto(mail.link.replace(/^https?:\/\/[^/]+/, ''));
      await expect(other).toHaveURL(/account\/company/);
      await other.getByLabel('Company name').fill('Elsewhere Co');
      await other.getByLabel('Your role').selectOption('dev');
      await other.getByRole('button', { name: 'Continue' }).click();
      await expect(other).toHaveURL(/server-builder\/success/, { timeout: 20_000 });
      await other.screenshot({ path: `${SHOTS}/phone-other-device-success.png` });
      const me = ((await (await other.request.get('/api/v1/auth/me')).json()) as { payload: { companies: { _id: string }[] } }).payload;
      const servers = await other.request.get(`/api/v1/deployments?company=${me.companies[0]?._id}`);
      expect(((await servers.json()) as { payload: Listed[] }).payload.map((d) => d.subscription.planCode)).toEqual(['v3.mau_500_gcp.base']);
      // Used once: the account no longer holds it.
      expect(((await (await other.request.get('/api/v1/users/me/pending-order')).json()) as { payload: { configuration: unknown } }).payload.configuration).toBeNull();
    } finally {
      await phone.close();
    }
  });

  test("'Order' on pricing carries the calculator's choice into /get-started", async ({ page }) => {
    await page.goto('/#/pricing');
    await plan(page, 'Basic').click();
    await page.getByRole('button', { name: /^Belgium, Europe/ }).click();
    await page.getByRole('link', { name: 'Order' }).click();
    await expect(page).toHaveURL(/get-started\/choose-plan$/);
    await expect(plan(page, 'Basic')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('wizard-total')).toHaveText('$109/month');
    await next(page).click();
    await expect(page.getByRole('button', { name: /^Belgium, Europe/ })).toHaveAttribute('aria-pressed', 'true');
  });

  // A new tab or a restarted browser has the session cookie and nothing else;
  // each address below opens in a new tab of a context that started with no storage at all.
  for (const [label, size] of Object.entries(SCREEN)) {
    test(`wizard addresses opened cold show their step with plans and a total (${label})`, async ({ page, browser }) => {
      const a = await newAccount(page, `wcold${label}`);
      const builder = `/#/c/${a.cid}/p/${a.pid}/server-builder`;
      const signedIn = await browser.newContext({ baseURL: process.env.BASE_URL, viewport: size, storageState: { cookies: (await page.context().storageState()).cookies, origins: [] } });
      const visitor = await browser.newContext({ baseURL: process.env.BASE_URL, viewport: size });
      try {
        // Payment has no server to pay for: the first step, with the catalogue loaded.
        const pay = await signedIn.newPage();
        await pay.goto(`${builder}/payment-details`);
        await expect(pay).toHaveURL(/server-builder\/choose-plan$/);
        await expect(plan(pay, 'Starter')).toHaveAttribute('aria-pressed', 'true');
        await expect(pay.getByTestId('wizard-total')).toHaveText('$49/month');
        await expect(next(pay)).toBeEnabled();
        await pay.screenshot({ path: `${SHOTS}/${label}-cold-payment-details.png` });
        // A middle step shows itself, with an order and a total, and goes on.
        const middle = await signedIn.newPage();
        await middle.goto(`${builder}/choose-add-ons`);
        await expect(middle).toHaveURL(/server-builder\/choose-add-ons$/);
        await expect(middle.getByTestId('wizard-total')).toHaveText('$49/month');
        await expect(next(middle)).toBeEnabled();
        await expectFits(middle, size.width);
        await middle.screenshot({ path: `${SHOTS}/${label}-cold-choose-add-ons.png` });
        await next(middle).click();
        await expect(middle).toHaveURL(/choose-extras$/);
        // Success with no server to announce starts over too.
        const done = await signedIn.newPage();
        await done.goto(`${builder}/success`);
        await expect(done).toHaveURL(/server-builder\/choose-plan$/);
        await expect(done.getByTestId('wizard-total')).toHaveText('$49/month');
        // Signed out: the pre-login wizard's middle step, and complete-setup with nothing chosen
        // sends the visitor to choose a plan.
        const region = await visitor.newPage();
        await region.goto('/#/get-started/choose-region');
        await expect(region).toHaveURL(/get-started\/choose-region$/);
        await expect(region.getByTestId('wizard-total')).toHaveText('$49/month');
        await expect(next(region)).toBeEnabled();
        await region.screenshot({ path: `${SHOTS}/${label}-cold-get-started-region.png` });
        const register = await visitor.newPage();
        await register.goto('/#/get-started/complete-setup');
        await expect(register).toHaveURL(/get-started\/choose-plan$/);
        await expect(plan(register, 'Starter')).toHaveAttribute('aria-pressed', 'true');
        await expect(register.getByTestId('wizard-total')).toHaveText('$49/month');
      } finally {
        await signedIn.close();
        await visitor.close();
      }
    });
  }

  for (const [label, size] of Object.entries(SCREEN)) {
    test(`every step fits at ${label} width and the footer stays in view`, async ({ page }) => {
      await page.setViewportSize(size);
      const a = await newAccount(page, `wfit${label}`);
      await openWizard(page, a);
      for (const step of ['choose-plan', 'choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
        await expect(page).toHaveURL(new RegExp(step));
        await expect(page.getByTestId('wizard-total')).not.toHaveText('—');
        await expect(next(page)).toBeEnabled();
        // The button's label goes by the width, in CSS (SPEC §2: 'Continue' on small screens).
        await expect(next(page)).toHaveAccessibleName(label === 'phone' ? 'Continue' : 'Next');
        await expectFits(page, size.width);
        await page.screenshot({ path: `${SHOTS}/${label}-${step}.png`, fullPage: step === 'choose-extras', animations: 'disabled' });
        if (step !== 'choose-extras') await next(page).click();
      }
      await next(page).click();
      await expect(page).toHaveURL(/payment-details/);
      await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-payment-details.png`, fullPage: true });
      await payWith(page, '4242424242424242');
      await expect(page).toHaveURL(/success/);
      await page.screenshot({ path: `${SHOTS}/${label}-success.png` });
      await page.getByRole('link', { name: 'Go to deployments' }).click();
      await expect(page.getByTestId('subscription-status')).toHaveText('Active');
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-deployments.png`, animations: 'disabled' });
      await page.goto('/#/get-started/choose-plan');
      await expect(plan(page, 'Starter')).toBeVisible();
      await expectFits(page, size.width);
      await page.screenshot({ path: `${SHOTS}/${label}-get-started.png` });
    });
  }
});
