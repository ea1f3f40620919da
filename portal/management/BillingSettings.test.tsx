// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompanyBilling } from '../../src/domain/payments/schemas';
import type { CompanyUsage } from '../../src/domain/usage/schemas';
import { selection } from '../../src/companySelection';
import { session } from '../../src/session';
import { errorReply, mockApi, okReply, type ApiHandler } from '../../src/testing/fetchMock';
import { en, renderPage, testUser } from '../../src/testing/renderPage';
import { clearToasts } from '../../src/ui/toast/toastStore';
import { BillingSettings } from './BillingSettings';

const user = { ...testUser, emailVerified: true, onboarding: null, companies: [{ _id: 'c-acme', name: 'Acme' }] };
const company = { _id: 'c-acme', name: 'Acme', size: null, logo: null, billingCountry: null, createdAt: '2026-01-01T00:00:00.000Z', role: 'admin', projects: [{ _id: 'p-1', name: 'Default project' }] };

const NO_COUNTRY = { country: null, rate: 0, kind: 'noCountry' } as const;
const taxed = (net: string) => ({ net, tax: '0.00', gross: net, currency: 'USD' as const, basis: NO_COUNTRY });

const subscription = (over: Partial<CompanyBilling['subscriptions'][number]>): CompanyBilling['subscriptions'][number] => ({
  _id: 's-1',
  deploymentId: 'd-1',
  deploymentName: 'Shop analytics',
  vendor: 'paddle',
  status: 'active',
  cycle: 'month',
  recurring: { amount: '49.00', currency: 'USD' },
  bill: taxed('49.00'),
  currentPeriod: { startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' },
  nextBilledAt: '2026-12-01T12:00:00.000Z',
  scheduledChange: null,
  pastDueSince: null,
  pauseAfter: null,
  pendingOrder: null,
  free: false,
  deletingOn: null,
  deleted: false,
  ...over,
});

const billing: CompanyBilling = {
  subscriptions: [
    subscription({}),
    subscription({ _id: 's-2', deploymentId: 'd-2', deploymentName: 'Blog analytics', status: 'past_due', cycle: 'year', recurring: { amount: '490.00', currency: 'USD' }, bill: taxed('490.00'), pastDueSince: '2026-11-10T12:00:00.000Z', pauseAfter: '2026-11-24T12:00:00.000Z' }),
  ],
  transactions: [{ _id: 't-1', deploymentId: 'd-1', subscriptionId: 's-1', vendorTransactionId: 'txn_1', invoiceNumber: 'INV-0001', status: 'completed', currency: 'USD', subtotal: '49.00', discount: '0.00', tax: '9.80', total: '58.80', billedAt: '2026-11-01T12:00:00.000Z' }],
  card: { brand: 'visa', last4: '4242', expiryMonth: 3, expiryYear: 2039 },
  pastDue: { count: 1, since: '2026-11-10T12:00:00.000Z', pauseAfter: '2026-11-24T12:00:00.000Z' },
  taxBasis: NO_COUNTRY,
  taxChange: null,
};

/** One server past its tier, with the next tier priced, and every alert on. */
const usage: CompanyUsage = {
  servers: [
    {
      _id: 'd-1',
      name: 'Shop analytics',
      project: 'p-1',
      plan: { _id: 'pl-1', name: 'Starter', code: 'v3.mau_1_000_gcp.base', mau: 1000 },
      used: 1040,
      limit: 1000,
      forecast: { used: 1040, forecast: 1500, low: 1400, high: 1650, basis: 'trend', days: 12, periods: 0, runOutOn: '2026-11-11', periodEnd: '2026-11-30' },
      cycle: 'month',
      nextBill: taxed('49.00'),
      nextBillAt: '2026-12-01T12:00:00.000Z',
      overTier: true,
      projectedOver: true,
      nextTier: { plan: { _id: 'pl-5', name: 'Basic', code: 'v3.mau_5_000_gcp.base', mau: 5000 }, total: taxed('99.00'), dueNow: taxed('31.67') },
    },
  ],
  total: taxed('49.00'),
  taxBasis: NO_COUNTRY,
  currency: 'USD',
  alerts: { share80: true, share100: true, runOut: true },
};

function serve(overrides: ApiHandler = () => undefined as never) {
  return mockApi(async (call) => {
    const answer = await overrides(call);
    if (answer) return answer;
    if (call.path === '/api/v1/auth/me') return okReply(user);
    if (call.path === '/api/v1/companies/c-acme') return okReply(company);
    if (call.path === '/api/v1/companies/c-acme/billing') return okReply(billing);
    if (call.path === '/api/v1/companies/c-acme/usage') return okReply(usage);
    throw new Error(`unexpected ${call.method} ${call.path}`);
  });
}

beforeEach(async () => {
  localStorage.clear();
  serve();
  await session.refresh();
  selection.select('c-acme');
});

afterEach(() => {
  cleanup();
  session.end();
  clearToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = () => renderPage(<BillingSettings />, '/management/billing');

describe('Management › Billing for an admin', () => {
  it('lists each subscription with its server, amount per cycle, status, next billing and pause dates', async () => {
    open();
    const rows = await screen.findAllByTestId('subscription');
    expect(rows).toHaveLength(2);
    const [active, pastDue] = rows as [HTMLElement, HTMLElement];
    expect(active.textContent).toContain('Shop analytics');
    expect(active.textContent).toContain(en('management.billing.perCycle.month', { amount: '$49.00' }));
    expect(within(active).getByText(en('management.billing.status.active'))).toBeTruthy();
    expect(active.textContent).toContain(en('billingLine.next', { amount: `$49.00 ${en('taxLabel.noCountry')}`, date: 'Dec 1, 2026' }));
    expect(pastDue.textContent).toContain(en('management.billing.perCycle.year', { amount: '$490.00' }));
    expect(within(pastDue).getByText(en('management.billing.status.past_due'))).toBeTruthy();
    expect(pastDue.textContent).toContain(en('management.billing.pausesOn', { date: 'Nov 24, 2026' }));
  });

  it('says a server being deleted is billed no further, and shows no "Active" beside it', async () => {
    serve((call) => (call.path === '/api/v1/companies/c-acme/billing' ? okReply({ ...billing, subscriptions: [subscription({ deletingOn: '2026-11-28T12:00:00.000Z' })] }) : (undefined as never)));
    open();
    const [row] = await screen.findAllByTestId('subscription');
    expect(row?.textContent).toContain(en('billingLine.deleting', { date: 'Nov 28, 2026' }));
    expect(within(row as HTMLElement).queryByText(en('management.billing.status.active'))).toBeNull();
  });

  it('shows each server\'s forecast, its projected bill and the next tier with a link to the wizard on it', async () => {
    open();
    const [row] = await screen.findAllByTestId('server-usage', {}, { timeout: 5000 });
    const server = row as HTMLElement;
    expect(within(server).getByTestId('projected-bill').textContent).toBe(en('management.billing.usage.nextBillOn', { amount: `${en('management.billing.perCycle.month', { amount: '$49.00' })} ${en('taxLabel.noCountry')}`, date: 'Dec 1, 2026' }));
    expect(within(server).getByTestId('mau-forecast').textContent).toBe(en('servers.forecast.line', { forecast: '1,500', low: '1,400', high: '1,650', end: 'Nov 30, 2026' }));
    expect(within(server).getByTestId('next-tier').textContent).toContain(en('management.billing.usage.nextTier', { plan: 'Basic', mau: '5,000', price: `${en('management.billing.perCycle.month', { amount: '$99.00' })} ${en('taxLabel.noCountry')}`, dueNow: `$31.67 ${en('taxLabel.noCountry')}` }));
    const upgrade = within(server).getByRole('link', { name: en('management.billing.usage.upgrade', { plan: 'Basic' }) });
    expect(upgrade.getAttribute('href')).toContain('/c/c-acme/p/p-1/server-builder/d-1/choose-plan?plan=pl-5');
    expect(screen.getByTestId('projected-total').textContent).toBe(en('management.billing.usage.total', { amount: `$49.00 ${en('taxLabel.noCountry')}` }));
  });

  it('turns one kind of MAU alert off and keeps the others', async () => {
    const api = serve((call) => (call.method === 'PUT' && call.path === '/api/v1/companies/c-acme/usage-alerts' ? okReply({ share80: true, share100: true, runOut: false }) : (undefined as never)));
    open();
    const runOut = await screen.findByRole('switch', { name: en('management.billing.usage.alertKinds.runOut') }, { timeout: 5000 });
    fireEvent.click(runOut);
    await waitFor(() => expect(api.callsTo('PUT', '/api/v1/companies/c-acme/usage-alerts')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/v1/companies/c-acme/usage-alerts')[0]?.body).toEqual({ share80: true, share100: true, runOut: false });
    await waitFor(() => expect((runOut as HTMLInputElement).checked).toBe(false));
    expect((screen.getByRole('switch', { name: en('management.billing.usage.alertKinds.share80') }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows the transactions as a table with dollar amounts and statuses in words, and the card on file', async () => {
    open();
    const [row] = await screen.findAllByTestId('transaction');
    const cells = within(row as HTMLElement).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 6)).toEqual(['Nov 1, 2026', 'INV-0001', '$49.00', '$9.80', '$58.80', 'Paid']);
    expect(screen.getByText(en('management.billing.cardDetails', { brand: 'Visa', last4: '4242' }))).toBeTruthy();
    expect(screen.getByText(en('management.billing.cardExpiry', { month: '03', year: 2039 }))).toBeTruthy();
  });

  it('warns about the past-due payment with its pause date and offers to update the card', async () => {
    open();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(en('management.billing.pastDue', { count: 1, since: 'Nov 10, 2026', date: 'Nov 24, 2026' }));
    expect(within(alert).getByRole('button', { name: en('management.billing.updateCard') })).toBeTruthy();
  });

  const pastDueCheckout = { mode: 'stand-in', deploymentId: 'd-2', companyId: 'c-acme', name: 'Blog analytics', paymentRequired: true, purpose: 'pastDue', transactionId: null, status: 'past_due', cycle: 'year', items: [{ kind: 'base', refId: null, name: 'Starter', amount: '490.00' }], subtotal: '490.00', discount: '0.00', tax: '0.00', total: { amount: '490.00', currency: 'USD' }, taxBasis: NO_COUNTRY, customer: { email: 'ada@example.com' } };

  it('pays the past-due renewal with a new card in the payment modal, then offers the dashboard with success=true', async () => {
    let paid = false;
    const api = serve((call) => {
      if (call.path === '/api/v1/payments/checkout/d-2') return okReply(pastDueCheckout);
      if (call.path === '/api/v1/payments/config') return okReply({ mode: 'stand-in', environment: null, clientToken: null });
      if (call.path === '/api/v1/payments/checkout/d-2/pay') {
        paid = true;
        return okReply({ status: 'completed', subscription: subscription({ _id: 's-2', deploymentId: 'd-2' }) });
      }
      // The step reads the company's billing until the server's subscription is active again.
      if (call.path === '/api/v1/companies/c-acme/billing' && paid) return okReply({ ...billing, subscriptions: billing.subscriptions.map((s) => (s.deploymentId === 'd-2' ? { ...s, status: 'active' } : s)) });
      return undefined as never;
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.billing.updateCard') }));
    const dialog = await screen.findByRole('dialog', { name: en('wizard.paymentModal.title', { name: 'Blog analytics' }) });
    // The summary (base tier, tax note, total) and the card form, whose button says what it does.
    expect(await within(dialog).findByText(en('wizard.payment.baseTier', { name: 'Starter' }))).toBeTruthy();
    expect(within(dialog).getByText(en('wizard.payment.taxNote'))).toBeTruthy();
    const form = await within(dialog).findByRole('form', { name: en('wizard.payment.cardForm') });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.cardNumber'), { exact: false }), { target: { value: '5555555555554444' } });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.expiry'), { exact: false }), { target: { value: '12/39' } });
    fireEvent.change(within(form).getByLabelText(en('wizard.payment.cvc'), { exact: false }), { target: { value: '123' } });
    fireEvent.click(within(form).getByRole('button', { name: en('wizard.payment.payRenewal') }));
    const done = await screen.findByRole('dialog', { name: en('wizard.paymentModal.paidTitle') }, { timeout: 3000 });
    expect(within(done).getByRole('link', { name: en('wizard.created.toDashboard') }).getAttribute('href')).toBe('/c/c-acme/p/p-1/dashboard?success=true');
    expect(api.callsTo('POST', '/api/v1/payments/checkout/d-2/pay')).toHaveLength(1);
    // The billing page reads the company's billing again once paid.
    await waitFor(() => expect(api.callsTo('GET', '/api/v1/companies/c-acme/billing').length).toBeGreaterThan(1));
  });

  it('says in the payment modal when nothing is due there', async () => {
    const api = serve((call) => (call.path === '/api/v1/payments/checkout/d-2' ? okReply({ ...pastDueCheckout, paymentRequired: false, purpose: null }) : undefined as never));
    open();
    fireEvent.click(await screen.findByRole('button', { name: en('management.billing.updateCard') }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(en('wizard.paymentModal.notDue'))).toBeTruthy();
    expect(api.callsTo('GET', '/api/v1/payments/checkout/d-2')).toHaveLength(1);
  });

  it('opens the receipt of a transaction in a new tab, a printable page of the API, without fetching it itself', async () => {
    const api = serve(() => undefined as never);
    open();
    const link = await screen.findByRole('link', { name: en('management.billing.receiptFor', { invoice: 'INV-0001' }) });
    expect(link.getAttribute('href')).toBe('/api/v1/companies/c-acme/transactions/t-1/receipt');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(api.callsTo('GET', '/api/v1/companies/c-acme/transactions/t-1/receipt')).toHaveLength(0);
  });

  it('opens the invoice of a transaction in a new tab, from the API, without fetching it itself', async () => {
    const api = serve(() => undefined as never);
    open();
    const link = await screen.findByRole('link', { name: en('management.billing.invoiceFor', { invoice: 'INV-0001' }) });
    expect(link.getAttribute('href')).toBe('/api/v1/companies/c-acme/transactions/t-1/invoice');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(api.callsTo('GET', '/api/v1/companies/c-acme/transactions/t-1/invoice')).toHaveLength(0);
  });

  it('says so when there is no card, no transaction and nothing past due', async () => {
    serve((call) => (call.path === '/api/v1/companies/c-acme/billing' ? okReply({ ...billing, subscriptions: [subscription({})], transactions: [], card: null, pastDue: { count: 0, since: null, pauseAfter: null } }) : undefined as never));
    open();
    expect(await screen.findByText(en('management.billing.noCard'))).toBeTruthy();
    expect(screen.getByText(en('management.billing.noTransactions'))).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers to pay a pending subscription again', async () => {
    serve((call) => (call.path === '/api/v1/companies/c-acme/billing' ? okReply({ ...billing, subscriptions: [subscription({ status: 'pending', nextBilledAt: null })], pastDue: { count: 0, since: null, pauseAfter: null } }) : undefined as never));
    open();
    const row = await screen.findByTestId('subscription');
    expect(within(row).getByText(en('management.billing.status.pending'))).toBeTruthy();
    expect(within(row).getByRole('button', { name: en('management.billing.payNow') })).toBeTruthy();
  });

  it('lists an order never paid with its age and the day it is removed unless paid', async () => {
    const orderedAt = new Date(Date.now() - 3 * 86_400_000 - 60_000);
    const removedOn = new Date(orderedAt.getTime() + 7 * 86_400_000).toISOString();
    serve((call) => (call.path === '/api/v1/companies/c-acme/billing' ? okReply({ ...billing, subscriptions: [subscription({ status: 'pending', nextBilledAt: null, pendingOrder: { orderedAt: orderedAt.toISOString(), removedOn } }), subscription({ _id: 's-2', deploymentId: 'd-2', deploymentName: 'Paid one' })], pastDue: { count: 0, since: null, pauseAfter: null } }) : undefined as never));
    open();
    const [pending, paid] = await screen.findAllByTestId('subscription');
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(removedOn));
    expect(within(pending as HTMLElement).getByTestId('pending-order').textContent).toBe(`Ordered 3 days ago, not paid yet · removed on ${day} unless paid`);
    expect(within(paid as HTMLElement).queryByTestId('pending-order')).toBeNull();
  });
});

describe('Management › Billing for a viewer', () => {
  it("shows the server's refusal plainly and nothing of the billing", async () => {
    serve((call) => (call.path === '/api/v1/companies/c-acme/billing' ? errorReply(403, 'FORBIDDEN', 'Only company admins can see billing.') : undefined as never));
    open();
    expect((await screen.findByRole('alert')).textContent).toContain('Only company admins can see billing.');
    expect(screen.queryByTestId('subscription')).toBeNull();
    expect(screen.queryByRole('button', { name: en('management.retry') })).toBeNull();
  });
});
