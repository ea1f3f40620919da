import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

// One tax rule on every screen: the company's country changes on its settings page, and then
// Billing (each bill, the projected bills and their total), the server page, its upgrade review and
// the wizard all say the new country's tax, on the same basis.
const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/tax';
const DE = 'incl. 19% VAT (DE)';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const dollars = (text: string) => Math.round(Number((/\$([\d,]+(?:\.\d{2})?)/.exec(text)?.[1] ?? 'NaN').replace(/,/g, '')) * 100);

/** A verified account, signed in in this page's cookie jar, with a company and its first project. */
async function newAccount(page: Page) {
  const email = `tax-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: 'Taxed Analytics' } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/** A paid server on a plan, ordered and paid through the API (stand-in card). */
async function paidServer(page: Page, a: { cid: string; pid: string }, name: string, planCode: string) {
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const plan = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === planCode);
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const body = { name, plan: plan?._id, paymentCycle: 'month', planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, features: [f('domain.default'), f('retention.6m'), f('backup.daily')] }, paymentVendor: 'paddle', company: a.cid, project: a.pid, provider: 'gcp' };
  const order = await page.request.post('/api/v1/deployments?addProvisionSummary=1', { data: body, headers: { 'idempotency-key': randomUUID() } });
  expect(order.status()).toBe(201);
  const id = ((await order.json()) as { payload: { _id: string } }).payload._id;
  expect((await page.request.post(`/api/v1/payments/checkout/${id}/pay`, { data: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  return id;
}

const wizardNext = (page: Page) => page.getByTestId('wizard-footer').getByRole('button', { name: /^(Next|Continue)$/ });

test('after the billing country changes, every money screen says the new country\'s tax and adds like with like', async ({ page }) => {
  await page.setViewportSize(SCREEN.wide);
  const a = await newAccount(page);
  // Ordered with no billing country: $49 a month, no tax.
  const first = await paidServer(page, a, 'Shop analytics', 'v3.mau_1_000_gcp.base');

  // The country changes where a customer changes it.
  await page.goto('/#/management/company');
  await page.getByLabel('Billing country').selectOption({ label: 'Germany' });
  await page.getByRole('button', { name: 'Save changes' }).click();
  const saved = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'Company settings saved.' });
  await expect(saved).toBeVisible();
  // Closed, so it covers nothing on the screens read below.
  await saved.getByRole('button', { name: 'Close' }).click();
  await expect(saved).toBeHidden();
  // A second server, ordered in Germany.
  await paidServer(page, a, 'Blog analytics', 'v3.mau_5_000_gcp.base');

  // Billing: the change is said, and every bill is on Germany, the one ordered before included.
  await page.goto('/#/management/billing');
  const notice = page.getByTestId('tax-change');
  await expect(notice).toContainText('→ Germany');
  await expect(notice).toContainText(`From the next bill on, every bill uses the new country: amounts are ${DE}`);
  const subscriptions = page.getByTestId('subscription');
  await expect(subscriptions).toHaveCount(2);
  const shop = subscriptions.filter({ hasText: 'Shop analytics' });
  await expect(shop).toContainText(`$58.31 / month ${DE}`);
  await expect(shop.getByTestId('billing-line')).toContainText(`Next bill $58.31 ${DE}`);
  for (const row of await subscriptions.all()) await expect(row).toContainText(DE);

  // Projected next bills: each on Germany, and the total is their sum, its parts named.
  const projected = page.getByTestId('projected-bill');
  await expect(projected).toHaveCount(2);
  let sum = 0;
  for (const line of await projected.all()) {
    await expect(line).toContainText(DE);
    sum += dollars(await line.innerText());
  }
  const total = page.getByTestId('projected-total');
  await expect(total).toContainText(DE);
  await expect(total).toContainText(/\(\$[\d,]+\.\d{2} excl\. tax \+ \$[\d,]+\.\d{2} VAT\)/);
  expect(dollars(await total.innerText())).toBe(sum);
  await page.screenshot({ path: `${SHOTS}/billing-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(notice).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.screenshot({ path: `${SHOTS}/billing-390.png`, fullPage: true });

  // The server page: its next bill on Germany.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments/${first}`);
  const planPanel = page.getByTestId('plan-panel');
  await expect(planPanel).toContainText(`$58.31 ${DE}`);
  await page.screenshot({ path: `${SHOTS}/server-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(planPanel).toContainText(DE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.screenshot({ path: `${SHOTS}/server-390.png`, fullPage: true });
  await page.setViewportSize(SCREEN.wide);

  // Its upgrade review: now and after on Germany, never a net beside a gross.
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/${first}/choose-plan`);
  await expect(page.getByRole('heading', { name: 'Update Beacon Server' })).toBeVisible();
  await page.getByRole('button', { name: /^Basic \d/ }).click();
  await expect(page.getByTestId('wizard-total-tax')).toHaveText(`${DE} · prices above excl. tax`);
  for (const step of ['choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
    await wizardNext(page).click();
    await expect(page).toHaveURL(new RegExp(step));
  }
  const footerTotal = dollars(await page.getByTestId('wizard-total').innerText());
  await wizardNext(page).click();
  const review = page.getByRole('dialog', { name: 'Review your change' });
  await expect(review.getByTestId('review-current')).toHaveText(`Now: $58.31 ${DE} per month`);
  await expect(review.getByTestId('review-next')).toContainText(DE);
  // The wizard's total and the review's "after" are the same amount.
  expect(dollars(await review.getByTestId('review-next').innerText())).toBe(footerTotal);
  await expect(review.getByTestId('review-due-now')).toContainText(DE);
  await expect(review.getByTestId('review-tax-now')).toContainText('Of which VAT 19% (DE): $');
  await expect(review.getByTestId('review-basis')).toContainText(DE);
  await page.screenshot({ path: `${SHOTS}/review-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(review.getByTestId('review-current')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/review-390.png`, fullPage: true });
  await review.getByRole('button', { name: 'Cancel' }).click();

  // The wizard for a new server: its total on Germany from the first step.
  await page.setViewportSize(SCREEN.wide);
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/choose-plan`);
  await expect(page.getByRole('heading', { name: 'Create Beacon Server' })).toBeVisible();
  await page.getByRole('button', { name: /^Starter \d/ }).click();
  await expect(page.getByTestId('wizard-total-tax')).toHaveText(`${DE} · prices above excl. tax`);
  await expect(page.getByTestId('wizard-total')).toHaveText('$58.31/month');
  await page.screenshot({ path: `${SHOTS}/wizard-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(page.getByTestId('wizard-total-tax')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.screenshot({ path: `${SHOTS}/wizard-390.png`, fullPage: true });
});
