import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyBilling } from '../../src/domain/payments/schemas';
import { addMember, companyOwner, loadCatalogue, orderBody, postOrder, STARTER, type Catalogue } from '../support/orders';
import { paddleEvent, paddlePaysOrder, paddleSettings, paddleWebhook, startFakePaddle } from '../support/paddle';
import { api } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// The card on file with Paddle: Management → Billing offers "Update card" at any time, and Paddle's
// checkout takes the new card through the subscription's update-payment-method transaction.
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let cat: Catalogue;

beforeAll(async () => {
  fake = await startFakePaddle();
  t = await createTestApp({ ...paddleSettings(fake.url), AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
  fake.close();
});

const checkoutUrl = (companyId: string) => `/companies/${companyId}/billing/card/checkout`;
const cardCalls = () => fake.calls.filter((c) => c.url.endsWith('/update-payment-method-transaction'));
const audits = async (action: string, companyId: string) => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from audit_logs where action = '${action}' and target_id = '${companyId}'`))[0]?.n ?? 0;

/** An owner whose Starter order Paddle has paid: the vendor subscription id and the server. */
async function billedOwner(email: string) {
  const owner = await companyOwner(t.app, email);
  const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Card holder' }))).json().payload;
  const ids = created.provisionSummary.dataToVendor.customData as { deploymentId: string; subscriptionId: string; companyId: string };
  const vendorId = `sub_${ids.subscriptionId.slice(0, 8)}`;
  const subscription = { id: vendorId, status: 'active', customer_id: 'ctm_card', current_billing_period: { starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' }, next_billed_at: '2030-02-01T00:00:00Z', custom_data: ids };
  for (const res of await paddlePaysOrder(t.app, created, subscription)) expect(res.json().payload.outcome).toBe('applied');
  return { owner, vendorId, deploymentId: created._id as string, ids };
}

describe('Update card with Paddle', () => {
  it('gives a company admin the update-payment-method transaction of a billed subscription, audited; the card on file changes when Paddle says so', async () => {
    const { owner, vendorId, deploymentId, ids } = await billedOwner('paddle-card@example.com');
    const before = cardCalls().length;
    const res = await api(t.app, owner.cookie, 'POST', checkoutUrl(owner.companyId), {});
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ transactionId: 'txn_update_card', deploymentId, email: 'paddle-card@example.com' });
    expect(cardCalls().slice(before)).toEqual([{ method: 'GET', url: `/subscriptions/${vendorId}/update-payment-method-transaction`, auth: 'Bearer pdl_sdbx_apikey_test', body: {} }]);
    const [audit] = await t.app.database.rows<{ after: unknown; actor_email: string }>(`select after, actor_email from audit_logs where action = 'company.cardCheckout' and target_id = '${owner.companyId}'`);
    expect(audit).toEqual({ after: { transactionId: 'txn_update_card', subscriptionId: ids.subscriptionId }, actor_email: 'paddle-card@example.com' });

    // Paddle's checkout completes the card update: the new card goes on file, and no $0 payment is listed.
    const billing = async () => (await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/billing`)).json<{ payload: CompanyBilling }>().payload;
    const listed = (await billing()).transactions.length;
    const card = { type: 'mastercard', last4: '4444', expiry_month: 11, expiry_year: 2040 };
    const completed = await paddleWebhook(
      t.app,
      paddleEvent('transaction.completed', new Date(), {
        id: 'txn_update_card',
        status: 'completed',
        origin: 'subscription_payment_method_change',
        subscription_id: vendorId,
        currency_code: 'USD',
        billed_at: new Date().toISOString(),
        details: { totals: { subtotal: '0', discount: '0', tax: '0', total: '0' }, line_items: [] },
        payments: [{ status: 'captured', method_details: { type: 'card', card } }],
      }),
    );
    expect(completed.json().payload.outcome).toBe('applied');
    const after = await billing();
    expect(after.card).toMatchObject({ brand: 'mastercard', last4: '4444', expiryMonth: 11, expiryYear: 2040 });
    expect(after.transactions).toHaveLength(listed);
    expect(await audits('company.cardUpdate', owner.companyId)).toBe(1);
  });

  it('refuses a viewer and another company’s admin, calling Paddle for nothing and changing nothing', async () => {
    const { owner } = await billedOwner('paddle-card-refused@example.com');
    const viewer = await addMember(t.app, owner.companyId, 'paddle-card-viewer@example.com', 'viewer');
    const stranger = await companyOwner(t.app, 'paddle-card-stranger@example.com');
    const calls = fake.calls.length;
    const counts = await tableCounts(t.app);
    const asViewer = await api(t.app, viewer, 'POST', checkoutUrl(owner.companyId), {});
    expect([asViewer.statusCode, asViewer.json().code]).toEqual([403, 'BILLING_ROLE_REQUIRED']);
    const asStranger = await api(t.app, stranger.cookie, 'POST', checkoutUrl(owner.companyId), {});
    expect([asStranger.statusCode, asStranger.json().code]).toEqual([403, 'NOT_A_MEMBER']);
    for (const res of [asViewer, asStranger]) expect(res.body).not.toContain('txn_');
    expect(fake.calls.length).toBe(calls);
    expect(await tableCounts(t.app)).toEqual(counts);
  });

  it('says a company with no billed subscription has no card to update yet (an unpaid order is not billed)', async () => {
    const owner = await companyOwner(t.app, 'paddle-card-none@example.com');
    const none = await api(t.app, owner.cookie, 'POST', checkoutUrl(owner.companyId), {});
    expect([none.statusCode, none.json().code]).toEqual([409, 'NO_BILLED_SUBSCRIPTION']);
    expect(none.json().message).toContain('No paid server is billed yet');
    expect((await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Unpaid' }))).statusCode).toBe(201);
    const calls = cardCalls().length;
    const counts = await tableCounts(t.app);
    const pending = await api(t.app, owner.cookie, 'POST', checkoutUrl(owner.companyId), {});
    expect([pending.statusCode, pending.json().code]).toEqual([409, 'NO_BILLED_SUBSCRIPTION']);
    expect(cardCalls().length).toBe(calls);
    expect(await tableCounts(t.app)).toEqual(counts);
  });

  it('answers the stand-in card form route with 404: Paddle’s checkout takes the card', async () => {
    const { owner } = await billedOwner('paddle-card-form@example.com');
    const res = await api(t.app, owner.cookie, 'POST', `/companies/${owner.companyId}/billing/card`, { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' });
    expect(res.statusCode).toBe(404);
  });
});
