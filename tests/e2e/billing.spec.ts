import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, SCREEN, test } from './fixtures';
import { adminShots, asAdmin } from './adminPages';
import { waitForMail } from './mailbox';

const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/billing';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** A verified account with a company and its first project, signed in in this page's cookie jar. */
async function newAccount(page: Page): Promise<{ cid: string; pid: string }> {
  const email = `billing-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: 'Billing Co' } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  return { cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/** Orders a paid server through the API; paidServer also pays it with the stand-in's test card. */
async function orderServer(page: Page, a: { cid: string; pid: string }, name: string) {
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const p = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === 'v3.mau_5_000_gcp.base');
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const body = { name, plan: p?._id, paymentCycle: 'month', planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, features: [f('domain.default'), f('retention.12m'), f('backup.daily')] }, paymentVendor: 'paddle', company: a.cid, project: a.pid, provider: 'gcp' };
  const res = await page.request.post('/api/v1/deployments?addProvisionSummary=1', { data: body, headers: { 'idempotency-key': randomUUID() } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { payload: { _id: string } }).payload._id;
}

async function paidServer(page: Page, a: { cid: string; pid: string }, name: string) {
  const id = await orderServer(page, a, name);
  expect((await page.request.post(`/api/v1/payments/checkout/${id}/pay`, { data: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  return id;
}

test('an admin sees the paid server, its transaction and card under Management › Billing, and opens the receipt', async ({ page, context }) => {
  const account = await newAccount(page);
  await paidServer(page, account, 'Billed Server');

  await page.setViewportSize(SCREEN.wide);
  await page.goto('/#/management/billing');
  const sub = page.getByTestId('subscription');
  await expect(sub).toHaveCount(1);
  await expect(sub).toContainText('Billed Server');
  await expect(sub).toContainText('Active');
  await expect(sub).toContainText(/\$\d+\.\d{2} \/ month/);
  await expect(sub).toContainText(/Next bill \$\d+\.\d{2}( excl\. tax)? on /);
  const tx = page.getByTestId('transaction');
  await expect(tx).toHaveCount(1);
  await expect(tx).toContainText(/\$\d+\.\d{2}/);
  await expect(tx).toContainText('Paid');
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await expect(page.getByText('Expires 12/2039')).toBeVisible();
  // Nothing is past due: no alert, no banner.
  await expect(page.getByTestId('past-due-banner')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/billing-1440.png`, fullPage: true });

  // "Receipt" opens the payment's receipt, a printable document, in a new tab.
  const invoiceNumber = (await tx.getByRole('cell').nth(1).innerText()).trim();
  const totalOnScreen = (await tx.getByRole('cell').nth(4).innerText()).trim();
  const link = tx.getByRole('link', { name: `Open the receipt of invoice ${invoiceNumber} in a new tab` });
  await expect(link).toHaveAttribute('target', '_blank');
  const [receipt] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await receipt.setViewportSize(SCREEN.wide);
  await expect(receipt.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  await expect(receipt.getByText(`${totalOnScreen} paid`)).toBeVisible();
  await expect(receipt.getByRole('definition').filter({ hasText: 'Visa ending in 4242' })).toBeVisible();
  await expect(receipt.getByRole('definition').filter({ hasText: invoiceNumber })).toBeVisible();
  await expect(receipt.getByRole('button', { name: 'Download PDF' })).toBeVisible();
  await receipt.screenshot({ path: `${SHOTS}/receipt-1440.png`, fullPage: true });
  await receipt.setViewportSize(SCREEN.phone);
  expect(await receipt.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await receipt.screenshot({ path: `${SHOTS}/receipt-390.png`, fullPage: true });
  await receipt.close();

  await page.setViewportSize(SCREEN.phone);
  await page.reload();
  await expect(page.getByTestId('subscription')).toContainText('Billed Server');
  // The table scrolls inside its own box; the page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.screenshot({ path: `${SHOTS}/billing-390.png`, fullPage: true });
});

test('a pending server is paid from Management › Billing in the payment modal, which then leads to the dashboard', async ({ page }) => {
  const account = await newAccount(page);
  await orderServer(page, account, 'Unpaid Server');
  await page.setViewportSize(SCREEN.phone);
  await page.goto('/#/management/billing');
  const sub = page.getByTestId('subscription');
  await expect(sub).toContainText('Pending');
  await sub.getByRole('button', { name: 'Pay now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay for Unpaid Server' });
  // The modal's summary: base tier, tax note and total.
  await expect(dialog.getByRole('region', { name: 'Order summary' })).toContainText('(base tier)');
  await expect(dialog).toContainText('Tax is added according to your billing country.');
  const form = dialog.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('12/39');
  await form.getByLabel('Security code').fill('123');
  await page.screenshot({ path: `${SHOTS}/pay-again-390.png`, fullPage: true });
  await form.getByRole('button').last().click();
  const done = page.getByRole('dialog', { name: 'Payment received' });
  await expect(done).toContainText('Unpaid Server is paid. Thank you!');
  await page.screenshot({ path: `${SHOTS}/pay-again-done-390.png`, fullPage: true });
  // Behind the modal the page has read the billing again.
  await expect(sub).toContainText('Active');
  await expect(page.getByTestId('transaction')).toHaveCount(1);
  await done.getByRole('link', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(/#\/c\/[^/]+\/p\/[^/]+\/dashboard$/);
  await expect(page.getByText('Payment received. Your server is being set up.')).toBeVisible();
});

test('deleting a paid server: no screen shows a next bill and the timeline says billing stopped', async ({ page, browser }) => {
  const account = await newAccount(page);
  const id = await paidServer(page, account, 'Deleted Server');
  const serverPage = `/#/c/${account.cid}/p/${account.pid}/deployments/${id}`;
  await page.setViewportSize(SCREEN.wide);
  await page.goto(serverPage);
  const plan = page.getByTestId('plan-panel');
  await expect(plan).toContainText(/Next bill \$\d+(\.\d{2})? excl\. tax on /, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // The confirmation's own Delete button, the last on the page.
  await page.getByRole('button', { name: 'Delete', exact: true }).last().click();
  await expect(plan).toContainText(/Deleting on .+; no further charge/);
  // The deletion's line carries its date; the billing line names none (the period's end read as a second deletion date).
  await expect(page.getByTestId('timeline-panel')).toContainText('Billing stopped: no further charge');
  await expect(page.getByTestId('timeline-panel')).not.toContainText(/no further charge after/);
  await expect(page.getByText(/Next bill/)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/server-deleting-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await expect(plan).toContainText(/Deleting on .+; no further charge/);
  await page.screenshot({ path: `${SHOTS}/server-deleting-390.png`, fullPage: true });

  await page.goto('/#/management/billing');
  await expect(page.getByTestId('subscription').getByTestId('billing-line')).toContainText(/Deleting on .+; no further charge/);
  await expect(page.getByText(/Next bill/)).toHaveCount(0);
  await page.goto(`/#/c/${account.cid}/p/${account.pid}/deployments`);
  await expect(page.getByText(/Deleting on .+; no further charge/).first()).toBeVisible();

  // The admin area says the same, in the servers list and on the server's page: never "Active".
  // On a slow run the minute's termination may already have deleted it: then it says so.
  const stopped = /(Deleting on .+|Deleted); no further charge/;
  const context = await browser.newContext({ baseURL: process.env.BASE_URL });
  const adminPage = await context.newPage();
  await asAdmin(adminPage);
  await adminPage.goto('/#/admin/deployments');
  const servers = adminPage.getByRole('table', { name: 'Servers' });
  await expect(servers).toBeVisible();
  await adminPage.getByRole('searchbox').fill(id);
  const row = servers.getByRole('row').filter({ hasText: 'Deleted Server' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(stopped);
  await expect(row).not.toContainText('Active');
  await adminShots(adminPage, 'server-deleting-list');
  await row.getByRole('link', { name: 'Deleted Server' }).click();
  await expect(adminPage.getByTestId('billing-line')).toContainText(stopped);
  await expect(adminPage.getByText(/Subscription: Active/)).toHaveCount(0);
  await adminShots(adminPage, 'server-deleting-show');
  await context.close();
});

test('an abandoned payment is completed from the server page, its card and the deployments list', async ({ page }) => {
  const account = await newAccount(page);
  const id = await orderServer(page, account, 'Pending Server');
  await page.setViewportSize(SCREEN.phone);
  await page.goto(`/#/c/${account.cid}/p/${account.pid}/dashboard`);
  await expect(page.getByTestId('server-card').getByTestId('complete-payment')).toBeVisible({ timeout: 60_000 });
  await page.goto(`/#/c/${account.cid}/p/${account.pid}/deployments`);
  await expect(page.getByTestId('complete-payment').first()).toBeVisible();
  await page.goto(`/#/c/${account.cid}/p/${account.pid}/deployments/${id}`);
  const complete = page.getByTestId('complete-payment');
  await expect(complete).toBeVisible();
  await expect(page.getByTestId('plan-panel')).toContainText('Payment pending: nothing charged yet');
  await page.screenshot({ path: `${SHOTS}/server-pending-390.png`, fullPage: true });
  await page.setViewportSize(SCREEN.wide);
  await page.screenshot({ path: `${SHOTS}/server-pending-1440.png`, fullPage: true });
  await complete.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Pay for Pending Server');
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/39');
  await dialog.getByLabel('Security code').fill('123');
  await dialog.getByRole('button', { name: /^Pay/ }).click();
  await expect(dialog).toContainText('Payment received');
});

test('a payment offers the card on file, which stays; a new card replaces it', async ({ page }) => {
  const account = await newAccount(page);
  const first = await orderServer(page, account, 'Mastercard Server');
  expect((await page.request.post(`/api/v1/payments/checkout/${first}/pay`, { data: { cardNumber: '5555 5555 5555 4444', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
  await orderServer(page, account, 'On File Server');
  await page.setViewportSize(SCREEN.wide);
  await page.goto('/#/management/billing');
  await expect(page.getByText('Mastercard ending in 4444')).toBeVisible();
  const pending = page.getByTestId('subscription').filter({ hasText: 'On File Server' });
  await pending.getByRole('button', { name: 'Pay now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay for On File Server' });
  const form = dialog.getByRole('form', { name: 'Card payment' });
  // The card on file is offered first; a new card is the other choice.
  await expect(form.getByRole('radio', { name: 'Pay with Mastercard •••• 4444' })).toBeChecked();
  await expect(form.getByLabel('Card number')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/pay-card-on-file-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await page.screenshot({ path: `${SHOTS}/pay-card-on-file-390.png`, fullPage: true });
  await form.getByRole('button', { name: 'Pay and create server' }).click();
  const done = page.getByRole('dialog', { name: 'Payment received' });
  await expect(done).toContainText('On File Server is paid. Thank you!');
  await page.keyboard.press('Escape');
  await expect(done).toHaveCount(0);
  await expect(page.getByText('Mastercard ending in 4444')).toBeVisible();

  // A new card given in a payment goes on file.
  await orderServer(page, account, 'New Card Server');
  await page.reload();
  await page.setViewportSize(SCREEN.wide);
  await page.getByTestId('subscription').filter({ hasText: 'New Card Server' }).getByRole('button', { name: 'Pay now' }).click();
  const next = page.getByRole('dialog', { name: 'Pay for New Card Server' }).getByRole('form', { name: 'Card payment' });
  await next.getByRole('radio', { name: 'Use a new card' }).check();
  await next.getByLabel('Card number').fill('4242 4242 4242 4242');
  await next.getByLabel('Expiry (MM/YY)').fill('12/39');
  await next.getByLabel('Security code').fill('123');
  await page.screenshot({ path: `${SHOTS}/pay-new-card-1440.png`, fullPage: true });
  await next.getByRole('button', { name: 'Pay and create server' }).click();
  await expect(page.getByRole('dialog', { name: 'Payment received' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
});

test('the card on file is updated at any time from Management › Billing', async ({ page }) => {
  const account = await newAccount(page);
  await paidServer(page, account, 'Card Server');
  await page.setViewportSize(SCREEN.wide);
  await page.goto('/#/management/billing');
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await page.getByTestId('update-card').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Card number').fill('4000 0000 0000 0002');
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/39');
  await dialog.getByLabel('Security code').fill('123');
  await dialog.getByRole('button', { name: 'Save card' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByLabel('Card number').fill('5555 5555 5555 4444');
  await dialog.getByRole('button', { name: 'Save card' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Mastercard ending in 4444')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/billing-card-1440.png`, fullPage: true });
  await page.setViewportSize(SCREEN.phone);
  await page.screenshot({ path: `${SHOTS}/billing-card-390.png`, fullPage: true });
});
