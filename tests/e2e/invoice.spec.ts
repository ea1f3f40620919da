import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { periodEnd } from '../../src/domain/orders/changes';
import { expect, SCREEN, test } from './fixtures';
import { waitForMail } from './mailbox';

// "Invoice" on Management › Billing opens a printable invoice in a new tab.
const PASSWORD = 'Tr1cky-Lantern';
const SHOTS = 'test-results/screens/invoice';
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token') ?? '';

/** A verified account whose company bills to Germany with a tax id (its address is set on the Company screen). */
async function companyInGermany(page: Page) {
  const email = `invoice-${Date.now()}@e2e.example.com`;
  expect((await page.request.post('/api/v1/users', { data: { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD } })).status()).toBe(201);
  const mail = await waitForMail(email, 'Verify');
  expect((await page.request.post('/api/v1/auth/verify', { data: { token: tokenOf(mail.link) } })).ok()).toBe(true);
  const created = await page.request.post('/api/v1/companies?onboarding=1', { data: { name: 'Müller & Söhne "Analytics"' } });
  const company = ((await created.json()) as { payload: { _id: string; projects: { _id: string }[] } }).payload;
  const put = await page.request.put(`/api/v1/companies/${company._id}`, { data: { name: 'Müller & Söhne "Analytics"', billingCountry: 'DE', taxId: 'DE811907980' } });
  expect(put.ok()).toBe(true);
  return company;
}

/** One paid server of the company (the stand-in's test card). */
async function paidServer(page: Page, company: { _id: string; projects: { _id: string }[] }) {
  const [plans, conf] = await Promise.all([page.request.get('/api/v1/plans/public'), page.request.get('/api/v1/plans/configurables/public/gcp')]);
  const plan = ((await plans.json()) as { payload: { _id: string; code: string }[] }).payload.find((x) => x.code === 'v3.mau_5_000_gcp.base');
  const c = ((await conf.json()) as { payload: { regions: { _id: string; code: string }[]; features: { _id: string; code: string }[] } }).payload;
  const f = (code: string) => c.features.find((x) => x.code === code)?._id ?? '';
  const body = { name: 'Invoiced Server', plan: plan?._id, paymentCycle: 'month', planConfig: { region: c.regions.find((r) => r.code === 'us-central1')?._id, features: [f('domain.default'), f('retention.12m'), f('backup.daily')] }, paymentVendor: 'paddle', company: company._id, project: company.projects[0]?._id, provider: 'gcp' };
  const order = await page.request.post('/api/v1/deployments?addProvisionSummary=1', { data: body, headers: { 'idempotency-key': randomUUID() } });
  expect(order.status()).toBe(201);
  const id = ((await order.json()) as { payload: { _id: string } }).payload._id;
  expect((await page.request.post(`/api/v1/payments/checkout/${id}/pay`, { data: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' } })).ok()).toBe(true);
}

/** The billing address as an admin sets it on Management › Company (at 390 px, then seen at 1440 px). */
async function addressOnCompanyScreen(page: Page) {
  await page.setViewportSize(SCREEN.phone);
  await page.goto('/#/management/company');
  const address = page.getByRole('group', { name: 'Billing address' });
  await address.getByLabel('Street address').fill('Friedrichstraße 123\nHinterhaus, 3. OG');
  await address.getByLabel('Postal code').fill('10117');
  await address.getByLabel('City').fill('Berlin');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/company-address-390.png`, fullPage: true });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Company settings saved.')).toBeVisible();
  await page.setViewportSize(SCREEN.wide);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Billing address' }).getByLabel('City')).toHaveValue('Berlin');
  await expect(page.getByRole('group', { name: 'Billing address' }).getByLabel('Street address')).toHaveValue('Friedrichstraße 123\nHinterhaus, 3. OG');
  await page.screenshot({ path: `${SHOTS}/company-address-1440.png`, fullPage: true });
}

test('"Invoice" opens the paid transaction’s printable invoice in a new tab, readable at 1440 and 390 px and in print', async ({ page, context }) => {
  // "Download PDF" asks the browser to print (Save as PDF): counted here instead of opening the dialog.
  await context.addInitScript(() => {
    const counted = window as unknown as { printed: number };
    counted.printed = 0;
    window.print = () => {
      counted.printed += 1;
    };
  });
  const company = await companyInGermany(page);
  await addressOnCompanyScreen(page);
  await paidServer(page, company);
  await page.setViewportSize(SCREEN.wide);
  await page.goto('/#/management/billing');
  const tx = page.getByTestId('transaction');
  await expect(tx).toHaveCount(1);
  const totalOnScreen = (await tx.getByRole('cell').nth(4).innerText()).trim();
  const link = tx.getByRole('link', { name: /Open invoice .+ in a new tab/ });
  await expect(link).toHaveAttribute('target', '_blank');

  const [invoice] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await invoice.setViewportSize(SCREEN.wide);
  await expect(invoice.getByRole('heading', { level: 1, name: 'Invoice' })).toBeVisible();
  const buyer = invoice.getByRole('region', { name: 'Bill to' });
  await expect(buyer).toContainText('Müller & Söhne "Analytics"');
  await expect(buyer).toContainText('Germany');
  await expect(buyer).toContainText('Tax ID: DE811907980');
  // The billing address as the company gave it, frozen on the invoice.
  await expect(buyer).toContainText('Friedrichstraße 123');
  await expect(buyer).toContainText('Hinterhaus, 3. OG');
  await expect(buyer).toContainText('10117 Berlin');
  // The lines: the server and the month paid for above them, each option named as on the order.
  const day = (d: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
  const from = new Date();
  await expect(invoice.getByRole('rowheader', { name: /^Server: Invoiced Server · Service period: / })).toHaveText(`Server: Invoiced Server · Service period: ${day(from)} – ${day(periodEnd(from, 'month'))}`);
  await expect(invoice.getByRole('row', { name: /^Basic \$99\.00$/ })).toBeVisible();
  await expect(invoice.getByRole('row', { name: /^Data retention: 12 months \$\d+\.\d{2}$/ })).toBeVisible();
  await expect(invoice.getByRole('row', { name: /^Region: Iowa, USA \$0\.00$/ })).toBeVisible();
  // "Download PDF": the print dialog, through the page's one same-origin script.
  const pdf = invoice.getByRole('button', { name: 'Download PDF' });
  await pdf.click();
  await expect.poll(() => invoice.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await expect(invoice.getByRole('region', { name: 'Seller' })).toContainText('Beacon');
  await expect(invoice.getByRole('row', { name: /^Tax \(19%\) \$\d+\.\d{2}$/ })).toBeVisible();
  // The same total as the Billing screen, in the same money format.
  const total = invoice.getByRole('row', { name: /^Total / });
  await expect(total).toContainText(/\$\d+\.\d{2}/);
  expect(Number((await total.innerText()).replace(/[^\d.]/g, ''))).toBe(Number(totalOnScreen.replace(/[^\d.]/g, '')));
  expect(await invoice.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.wide.width);
  await invoice.screenshot({ path: `${SHOTS}/invoice-1440.png`, fullPage: true });

  await invoice.setViewportSize(SCREEN.phone);
  await expect(buyer).toBeVisible();
  expect(await invoice.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(SCREEN.phone.width);
  await invoice.screenshot({ path: `${SHOTS}/invoice-390.png`, fullPage: true });

  await invoice.setViewportSize(SCREEN.wide);
  await invoice.emulateMedia({ media: 'print' });
  await expect(invoice.getByText('Print this page or save it as PDF from your browser.')).toBeHidden();
  await expect(pdf).toBeHidden();
  await invoice.screenshot({ path: `${SHOTS}/invoice-print.png`, fullPage: true });

  await page.setViewportSize(SCREEN.phone);
  await expect(tx.getByRole('link', { name: /Open invoice/ })).toBeAttached();
  await page.screenshot({ path: `${SHOTS}/billing-390.png`, fullPage: true });
});
