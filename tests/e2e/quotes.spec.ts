import type { Browser, Page } from '@playwright/test';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

// A quote the buyer's finance team approves and pays: an engineer (company admin) configures a
// paid server and sends it for approval; a billing member opens the mailed link, approves and pays
// with the stand-in card; the server comes up and the engineer is mailed.
const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/quotes';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';
const next = (page: Page) => page.getByTestId('wizard-footer').getByRole('button', { name: /^(Next|Continue)$/ });

/** A verified engineer signed in on this page, with a company in Germany and its first project. */
async function engineer(page: Page, email: string) {
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Erin', lastName: 'Engineer', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const res = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: 'Quoted Shop GmbH' } });
  const company = ((await res.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  expect((await page.request.put(`/api/v1/companies/${company._id}`, { data: { name: 'Quoted Shop GmbH', billingCountry: 'DE', taxId: '' } })).ok()).toBe(true);
  return { cid: company._id, pid: company.projects[0]?._id ?? '' };
}

/** Invites a billing member, who signs up from the invitation in their own browser. */
async function billingMember(browser: Browser, engineerPage: Page, cid: string, email: string) {
  expect((await engineerPage.request.post(`/api/v1/companies/${cid}/invitations`, { data: { email, role: 'billing' } })).ok()).toBe(true);
  const invite = await waitForMail(email, 'invited you');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invite.link);
  await expect(page.getByText('You join as a billing member.')).toBeVisible();
  await page.getByLabel('First name').fill('Fiona');
  await page.getByLabel('Last name').fill('Finance');
  await page.getByLabel('Your role').selectOption('other');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('I accept the terms of service').check();
  await page.getByLabel('I accept the privacy policy').check();
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page).toHaveURL(/#\/account\/signin\?email=/);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A billing member lands on Billing: the servers are not theirs to see.
  await expect(page).toHaveURL(/#\/management\/billing/);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Servers' })).toHaveCount(0);
  return { page, context };
}

test('an engineer sends a priced server for approval; finance approves and pays it; the server runs and the engineer is told', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(SCREEN.wide);
  const stamp = Date.now();
  const engineerEmail = `quote-engineer-${stamp}@e2e.example.com`;
  const financeEmail = `quote-finance-${stamp}@e2e.example.com`;
  const a = await engineer(page, engineerEmail);
  const finance = await billingMember(browser, page, a.cid, financeEmail);

  // The engineer configures a paid server in the wizard and sends it for approval from the last step.
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/server-builder/choose-plan`);
  await page.getByRole('button', { name: /^Starter \d/ }).click();
  for (const step of ['choose-region', 'core-features', 'choose-add-ons', 'choose-extras']) {
    await next(page).click();
    await expect(page).toHaveURL(new RegExp(step));
  }
  await page.getByLabel('Server name').fill('Shop analytics');
  await page.screenshot({ path: `${SHOTS}/wide-wizard-extras.png` });
  // On a phone "Send for approval" takes a row of its own under Back and Continue, inside the screen.
  await page.setViewportSize(SCREEN.phone);
  await expect(page.getByTestId('wizard-footer').getByRole('button', { name: 'Send for approval' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  const footer = await page.getByTestId('wizard-footer').boundingBox();
  expect(footer && footer.x >= 0 && footer.x + footer.width <= SCREEN.phone.width + 1).toBe(true);
  await page.screenshot({ path: `${SHOTS}/phone-wizard-extras.png` });
  await page.setViewportSize(SCREEN.wide);
  await page.getByTestId('wizard-footer').getByRole('button', { name: 'Send for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send for approval' });
  await expect(dialog).toContainText('The server “Shop analytics”');
  await expect(dialog.getByRole('button', { name: 'Send quote' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/wide-send-for-approval.png`, animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Send quote' }).click();
  await expect(page).toHaveURL(/#\/management\/billing\/quotes\//);
  await expect(page.getByRole('heading', { name: /^Quote Q-\d{6}$/ })).toBeVisible();
  const number = ((await page.getByRole('heading', { name: /^Quote Q-\d{6}$/ }).textContent()) ?? '').replace('Quote ', '');
  await expect(page.getByText('Open', { exact: true })).toBeVisible();

  // Finance gets the link by mail, opens the read-only quote, looks at its document and approves.
  const mail = await waitForMail(financeEmail, 'waiting for your approval');
  expect(mail.text).toContain(number);
  const fp = finance.page;
  await fp.setViewportSize(SCREEN.phone);
  await fp.goto(mail.link);
  await expect(fp.getByRole('heading', { name: `Quote ${number}` })).toBeVisible();
  await expect(fp.getByText('Server “Shop analytics” · Starter')).toBeVisible();
  await expect(fp.getByRole('table', { name: 'Quoted lines' })).toContainText('Tax (19%, DE)');
  const total = (await fp.getByRole('table', { name: 'Quoted lines' }).getByRole('row').last().textContent()) ?? '';
  expect(total).toMatch(/Total per month\$\d+\.\d{2}/);
  await fp.screenshot({ path: `${SHOTS}/phone-quote-open.png`, fullPage: true });
  expect(await fp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  const [documentPage] = await Promise.all([fp.context().waitForEvent('page'), fp.getByRole('link', { name: 'Open document (PDF)' }).click()]);
  await expect(documentPage.getByRole('heading', { name: 'Quote', exact: true })).toBeVisible();
  await expect(documentPage.locator('body')).toContainText(`No. ${number}`);
  await expect(documentPage.locator('body')).toContainText('Quoted Shop GmbH');
  await documentPage.screenshot({ path: `${SHOTS}/phone-quote-document.png`, fullPage: true });
  await documentPage.close();

  await fp.getByRole('button', { name: 'Approve and pay' }).click();
  await expect(fp).toHaveURL(/server-builder\/payment-details\?deploymentId=/);
  const form = fp.getByRole('form', { name: 'Card payment' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('12/39');
  await form.getByLabel('Security code').fill('123');
  await form.getByRole('button', { name: 'Pay and create server' }).click();
  await expect(fp).toHaveURL(/server-builder\/success/);
  // Finance sees no servers: the way on from here is back to Billing.
  await expect(fp.getByRole('link', { name: 'Go to deployments' })).toHaveCount(0);
  await expect(fp.getByRole('link', { name: 'Back to billing' })).toBeVisible();

  // The engineer is told the quote was approved, then that its server runs, and sees it running.
  expect((await waitForMail(engineerEmail, 'was approved')).text).toContain(number);
  const running = await waitForMail(engineerEmail, 'is running');
  expect(running.text).toContain('Shop analytics');
  await page.goto('/#/management/billing');
  const row = page.getByTestId('quote').filter({ hasText: number });
  await expect(row).toContainText('Approved');
  await page.screenshot({ path: `${SHOTS}/wide-billing-quotes.png`, fullPage: true });
  await page.goto(`/#/c/${a.cid}/p/${a.pid}/deployments`);
  await expect(page.getByTestId('deployment-row').filter({ hasText: 'Shop analytics' })).toBeVisible();

  // Approving the paid quote again creates nothing: it says so.
  await fp.goto(mail.link);
  await expect(fp.getByText('Approved and paid: the server is being set up.')).toBeVisible();
  await expect(fp.getByRole('button', { name: 'Approve and pay' })).toHaveCount(0);
  await finance.context.close();
});
