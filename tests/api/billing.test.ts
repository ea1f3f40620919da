import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyBilling } from '../../src/domain/payments/schemas';
import { addMember, companyOwner, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { api, FAST_SERVERS, populated, settledIn, timeline } from '../support/servers';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Billing that tells the truth, with the payments stand-in.
let t: TestApp;
let cat: Catalogue;
let owner: Awaited<ReturnType<typeof companyOwner>>;

beforeAll(async () => {
  t = await createTestApp({ ...FAST_SERVERS, PAYMENTS_STAND_IN: 'true', DELETION_GRACE_SECONDS: '3600', RESTORE_WINDOW_SECONDS: '3600' });
  cat = await loadCatalogue(t.app);
  owner = await companyOwner(t.app, 'billing-truth@example.com');
});
afterAll(() => t.close());

const companyBilling = async () => (await api(t.app, owner.cookie, 'GET', `/companies/${owner.companyId}/billing`)).json<{ payload: CompanyBilling }>().payload;
const kinds = async (id: string) => (await timeline(t.app, owner.cookie, id)).events.map((e) => e.kind);
const audits = async (action: string, targetId: string) => (await t.app.database.rows<{ n: number }>(`select count(*)::int as n from audit_logs where action = '${action}' and target_id = '${targetId}'`))[0]?.n ?? 0;

async function paidServer(name: string) {
  const created = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name }))).json().payload;
  expect((await pay(t.app, owner.cookie, created._id, '5555 5555 5555 4444')).statusCode).toBe(200);
  await settledIn(t.app, owner.cookie, created._id, 'running');
  return created as { _id: string };
}

describe('deleting a paid server', () => {
  it('stops billing from the confirmation on, on every answer, in the timeline and the audit log; cancelling the deletion resumes it', async () => {
    const server = await paidServer('Billed then deleted');
    const before = await populated(t.app, owner.cookie, server._id);
    expect(before.billing.nextBilledAt).not.toBeNull();
    const subscriptionId = before.billing._id;

    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${server._id}`)).statusCode).toBe(200);
    const deleting = await populated(t.app, owner.cookie, server._id);
    expect(deleting.terminationScheduledAt).not.toBeNull();
    expect(deleting.billing.nextBilledAt).toBeNull();
    expect(deleting.billing.scheduledChange).toMatchObject({ action: 'cancel', effective_at: before.billing.currentPeriod?.endsAt });
    const listed = (await companyBilling()).subscriptions.find((s) => s.deploymentId === server._id);
    expect(listed).toMatchObject({ nextBilledAt: null, deletingOn: deleting.terminationScheduledAt, deleted: false });
    expect(await kinds(server._id)).toContain('billing_stopped');
    expect(await audits('subscription.scheduledChange', subscriptionId)).toBe(1);

    // Cancelling the deletion resumes billing, and says so.
    expect((await api(t.app, owner.cookie, 'GET', `/deployments/${server._id}/cancel-termination`)).statusCode).toBe(200);
    const kept = await populated(t.app, owner.cookie, server._id);
    expect(kept.billing).toMatchObject({ scheduledChange: null, nextBilledAt: before.billing.nextBilledAt });
    expect(await kinds(server._id)).toContain('billing_resumed');
    expect(await audits('subscription.scheduledChange', subscriptionId)).toBe(2);
  });

  it('keeps no next bill through the termination, and a restore within the window resumes billing', async () => {
    const server = await paidServer('Billed, terminated, restored');
    const next = (await populated(t.app, owner.cookie, server._id)).billing.nextBilledAt;
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${server._id}`)).statusCode).toBe(200);
    await t.app.database.rows(`update deployment_runtime set termination_scheduled_at = now() - interval '1 second' where deployment_id = '${server._id}'`);
    await t.app.worker?.scheduled.terminations();
    await settledIn(t.app, owner.cookie, server._id, 'deleted');
    const listed = (await companyBilling()).subscriptions.find((s) => s.deploymentId === server._id);
    expect(listed).toMatchObject({ nextBilledAt: null, deleted: true, status: 'active' });
    // The termination asked nothing twice: one stop, one timeline event.
    expect((await kinds(server._id)).filter((k) => k === 'billing_stopped')).toHaveLength(1);

    expect((await api(t.app, owner.cookie, 'POST', `/deployments/${server._id}/restore`, {})).statusCode).toBe(200);
    const restored = await settledIn(t.app, owner.cookie, server._id, 'running');
    expect(restored.billing).toMatchObject({ scheduledChange: null, nextBilledAt: next });
    expect(await kinds(server._id)).toContain('billing_resumed');
  });

  it('refuses a viewer’s deletion and changes nothing, billing included', async () => {
    const server = await paidServer('Viewer cannot delete');
    const viewer = await addMember(t.app, owner.companyId, 'billing-viewer@example.com', 'viewer');
    const before = await tableCounts(t.app);
    const res = await api(t.app, viewer, 'DELETE', `/deployments/${server._id}`);
    expect(res.statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
    expect((await populated(t.app, owner.cookie, server._id)).billing.scheduledChange).toBeNull();
  });
});

describe('the card on file', () => {
  const card = async () => (await companyBilling()).card;
  const updateCard = (cookie: string, cardNumber: string) => api(t.app, cookie, 'POST', `/companies/${owner.companyId}/billing/card`, { cardNumber, expiry: '12/39', cvc: '123' });

  it('is the card the customer gave last, and a delete and restore of another server leaves it', async () => {
    const first = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Paid by Visa' }))).json().payload as { _id: string };
    expect((await pay(t.app, owner.cookie, first._id, '4242 4242 4242 4242')).statusCode).toBe(200);
    await settledIn(t.app, owner.cookie, first._id, 'running');
    const second = await paidServer('Paid by Mastercard');
    expect(await card()).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect(second._id).toBeTruthy();
    // The Visa server is deleted and kept: no card was given, so the card on file stays.
    expect((await api(t.app, owner.cookie, 'DELETE', `/deployments/${first._id}`)).statusCode).toBe(200);
    expect((await api(t.app, owner.cookie, 'GET', `/deployments/${first._id}/cancel-termination`)).statusCode).toBe(200);
    expect(await card()).toMatchObject({ brand: 'mastercard', last4: '4444' });
  });

  it('refuses a declined card and a viewer, changing nothing', async () => {
    const before = await tableCounts(t.app);
    const onFile = await card();
    const declined = await updateCard(owner.cookie, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'PAYMENT_DECLINED' });
    expect(await tableCounts(t.app)).toEqual(before);
    const viewer = await addMember(t.app, owner.companyId, 'card-viewer@example.com', 'viewer');
    const counted = await tableCounts(t.app);
    expect((await updateCard(viewer, '4242 4242 4242 4242')).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(counted);
    expect(await card()).toEqual(onFile);
  });

  it('is updated at any time, for every subscription of the company, and audited', async () => {
    const audited = await audits('company.cardUpdate', owner.companyId);
    const res = await updateCard(owner.cookie, '4242 4242 4242 4242');
    expect(res.statusCode).toBe(200);
    expect(await card()).toMatchObject({ brand: 'visa', last4: '4242' });
    const brands = await t.app.database.rows<{ brand: string }>(`select distinct card->>'brand' as brand from subscriptions where company_id = '${owner.companyId}' and card is not null`);
    expect(brands).toEqual([{ brand: 'visa' }]);
    expect(await audits('company.cardUpdate', owner.companyId)).toBe(audited + 1);
    const [row] = await t.app.database.rows<{ before: unknown; after: unknown }>(`select before, after from audit_logs where action = 'company.cardUpdate' and target_id = '${owner.companyId}' order by at desc limit 1`);
    expect(row).toEqual({ before: { brand: 'mastercard', last4: '4444' }, after: { brand: 'visa', last4: '4242' } });
  });

  it('has no Paddle card-update checkout: the card form takes the card (404, nothing changes)', async () => {
    const before = await tableCounts(t.app);
    const res = await api(t.app, owner.cookie, 'POST', `/companies/${owner.companyId}/billing/card/checkout`, {});
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('txn_');
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('paying with the card on file', () => {
  const payOnFile = (cookie: string, id: string) => api(t.app, cookie, 'POST', `/payments/checkout/${id}/pay-with-card-on-file`, {});
  const order = async (o: { cookie: string; companyId: string; projectId: string }, name: string) => (await postOrder(t.app, o.cookie, orderBody(cat, o, { planCode: STARTER, name }))).json().payload as { _id: string };

  it('offers the card on file in the checkout, pays with it and leaves it exactly as it was', async () => {
    const onFile = (await companyBilling()).card;
    expect(onFile).toMatchObject({ brand: 'visa', last4: '4242' });
    const server = await order(owner, 'Paid with the card on file');
    const checkout = (await api(t.app, owner.cookie, 'GET', `/payments/checkout/${server._id}`)).json().payload;
    expect(checkout).toMatchObject({ paymentRequired: true, purpose: 'order', cardOnFile: { brand: 'visa', last4: '4242', expiryMonth: onFile?.expiryMonth, expiryYear: onFile?.expiryYear } });
    const audited = await audits('company.cardUpdate', owner.companyId);
    const res = await payOnFile(owner.cookie, server._id);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'completed', subscription: { status: 'active' } });
    await settledIn(t.app, owner.cookie, server._id, 'running');
    const billing = await companyBilling();
    expect(billing.card).toEqual(onFile);
    expect(billing.transactions.filter((tx) => tx.deploymentId === server._id)).toHaveLength(1);
    expect(await audits('company.cardUpdate', owner.companyId)).toBe(audited);
    // Nothing is due any more: a second payment is refused.
    expect((await payOnFile(owner.cookie, server._id)).json().code).toBe('PAYMENT_NOT_DUE');
  });

  it('replaces the card on file when the customer pays with a new card', async () => {
    const server = await order(owner, 'Paid with a new card');
    expect((await pay(t.app, owner.cookie, server._id, '5555 5555 5555 4444')).statusCode).toBe(200);
    // Settled here, so its provisioning does not run on into the next test's "nothing changed".
    await settledIn(t.app, owner.cookie, server._id, 'running');
    expect((await companyBilling()).card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const brands = await t.app.database.rows<{ brand: string }>(`select distinct card->>'brand' as brand from subscriptions where company_id = '${owner.companyId}' and card is not null`);
    expect(brands).toEqual([{ brand: 'mastercard' }]);
    const [row] = await t.app.database.rows<{ before: unknown; after: unknown }>(`select before, after from audit_logs where action = 'company.cardUpdate' and target_id = '${owner.companyId}' order by at desc limit 1`);
    expect(row).toEqual({ before: { brand: 'visa', last4: '4242' }, after: { brand: 'mastercard', last4: '4444' } });
  });

  it('refuses a company without a card on file, and a viewer, changing nothing', async () => {
    const fresh = await companyOwner(t.app, 'no-card@example.com');
    const server = await order(fresh, 'No card yet');
    expect((await api(t.app, fresh.cookie, 'GET', `/payments/checkout/${server._id}`)).json().payload.cardOnFile).toBeNull();
    const before = await tableCounts(t.app);
    const res = await payOnFile(fresh.cookie, server._id);
    expect([res.statusCode, res.json().code]).toEqual([409, 'NO_CARD_ON_FILE']);
    expect(await tableCounts(t.app)).toEqual(before);
    const viewer = await addMember(t.app, owner.companyId, 'on-file-viewer@example.com', 'viewer');
    const pending = await order(owner, 'Viewer cannot pay');
    const counted = await tableCounts(t.app);
    expect((await payOnFile(viewer, pending._id)).statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(counted);
    expect((await populated(t.app, fresh.cookie, server._id)).billing.status).toBe('pending');
  });
});
