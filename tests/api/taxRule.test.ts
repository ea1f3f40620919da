import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTax, taxBasis, type TaxBasis } from '../../src/domain/billing/tax';
import type { TaxedAmount } from '../../src/domain/billing/schemas';
import { centsToDecimal, decimalToCents } from '../../src/domain/money';
import { BASIC, changeBody, companyOwner, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// One tax rule on every screen: after the company's billing country changes, every money answer
// (billing, next bills, the server's view, the upgrade review, the quote, the checkout) is on the
// new country, says so, and adds like with like.
let t: TestApp;
let cat: Catalogue;
const SELLER_TAX_ID = 'DE123456789';

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', SELLER_NAME: 'Beacon Analytics GmbH', SELLER_ADDRESS: 'Hauptstraße 1 | 10115 Berlin', SELLER_TAX_ID });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof companyOwner>>;
const get = async (owner: Owner, url: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie: owner.cookie } });
  expect(res.statusCode, url).toBe(200);
  return res.json().payload;
};
const post = async (owner: Owner, url: string, payload: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: { cookie: owner.cookie } });
  expect(res.statusCode, url).toBe(200);
  return res.json().payload;
};
const setCountry = async (owner: Owner, billingCountry: string | null, taxId: string | null = null) => {
  const res = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload: { name: 'Taxed Co', billingCountry: billingCountry ?? '', taxId: taxId ?? '' }, headers: { cookie: owner.cookie } });
  expect(res.statusCode).toBe(200);
};
const order = async (owner: Owner, planCode: string, paid: boolean) => {
  const res = await postOrder(t.app, owner.cookie, orderBody(cat, owner, { planCode }));
  expect(res.statusCode).toBe(201);
  const id = res.json().payload._id as string;
  if (paid) expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
  return id;
};
/** What the rule makes of a net amount on a basis, as the API answers it. */
const expected = (net: string, basis: TaxBasis): TaxedAmount => {
  const taxed = applyTax(decimalToCents(net), basis);
  return { net, tax: centsToDecimal(taxed.tax), gross: centsToDecimal(taxed.gross), currency: 'USD', basis };
};
const pricingBody = (owner: Owner, planCode: string) => {
  const body = orderBody(cat, owner, { planCode });
  return { plan: body.plan, planConfig: body.planConfig, payment: { term: { cycle: 'month' } }, company: owner.companyId };
};

/** Every money answer of the company, read after a change of country, checked against the one rule on `basis`. */
async function everyAnswerAgrees(owner: Owner, ids: { paid: string[]; unpaid: string }, basis: TaxBasis) {
  const billing = await get(owner, `/companies/${owner.companyId}/billing`);
  expect(billing.taxBasis).toEqual(basis);
  const bills = new Map<string, TaxedAmount>();
  for (const s of billing.subscriptions as { deploymentId: string; recurring: { amount: string }; bill: TaxedAmount }[]) {
    expect(s.bill).toEqual(expected(s.bill.net, basis));
    expect(s.recurring.amount).toBe(s.bill.gross);
    bills.set(s.deploymentId, s.bill);
  }
  expect([...bills.keys()].sort()).toEqual([...ids.paid, ids.unpaid].sort());

  // Next bills: each the billing page's, the total nets with nets and taxes with taxes.
  const usage = await get(owner, `/companies/${owner.companyId}/usage`);
  expect(usage.taxBasis).toEqual(basis);
  for (const s of usage.servers as { _id: string; nextBill: TaxedAmount }[]) expect(s.nextBill).toEqual(bills.get(s._id));
  const sum = (part: 'net' | 'tax' | 'gross') => centsToDecimal((usage.servers as { nextBill: TaxedAmount }[]).reduce((n, s) => n + decimalToCents(s.nextBill[part]), 0));
  expect(usage.total).toEqual({ net: sum('net'), tax: sum('tax'), gross: sum('gross'), currency: 'USD', basis });
  expect(decimalToCents(usage.total.net) + decimalToCents(usage.total.tax)).toBe(decimalToCents(usage.total.gross));

  // The server pages, the cards and the list: the same bill.
  for (const id of [...ids.paid, ids.unpaid]) expect((await get(owner, `/deployments/${id}/populated`)).billing.bill).toEqual(bills.get(id));
  const listed = (await get(owner, `/deployments/by-company/${owner.companyId}`)) as { deployments: { _id: string; billing: { bill: TaxedAmount } }[] };
  expect(listed.deployments.length).toBe(bills.size);
  for (const row of listed.deployments) expect(row.billing.bill).toEqual(bills.get(row._id));

  // The upgrade review: now and after on the same basis, the charge now taxed by the same rule.
  const first = ids.paid[0] as string;
  const review = await post(owner, '/deployments/generate-review', { ...changeBody(cat, owner, { planCode: BASIC }), _id: first });
  expect(review.taxBasis).toEqual(basis);
  expect(review.current.bill).toEqual(bills.get(first));
  expect(review.current.total).toBe(review.current.bill.gross);
  expect(review.next.bill).toEqual(expected(review.next.bill.net, basis));
  expect([review.next.total, review.next.tax]).toEqual([review.next.bill.gross, review.next.bill.tax]);
  expect(review.dueNow).toEqual(expected(review.dueNow.net, basis));
  expect([review.amountDueNow, review.taxDueNow]).toEqual([review.dueNow.gross, review.dueNow.tax]);

  // The quote (pricing and preview) names the tax's country and rate, on the same basis.
  const priced = await post(owner, '/deployments/pricing', pricingBody(owner, BASIC));
  expect(priced.taxBasis).toEqual(basis);
  const pricedNet = centsToDecimal(decimalToCents(priced.subtotal) - decimalToCents(priced.discount));
  expect([priced.tax, priced.total.amount]).toEqual([expected(pricedNet, basis).tax, expected(pricedNet, basis).gross]);
  expect(priced.total.amount).toBe(review.next.bill.gross);
  const preview = await post(owner, '/deployments/generate-preview', { ...changeBody(cat, owner, { planCode: BASIC }), name: 'Preview', company: owner.companyId });
  expect(preview.taxBasis).toEqual(basis);
  expect([preview.tax, preview.total.amount]).toEqual([priced.tax, priced.total.amount]);

  // The unpaid order's checkout: what the payment step shows is its next bill.
  const checkout = await get(owner, `/payments/checkout/${ids.unpaid}`);
  expect(checkout.taxBasis).toEqual(basis);
  expect([checkout.tax, checkout.total.amount]).toEqual([bills.get(ids.unpaid)?.tax, bills.get(ids.unpaid)?.gross]);
  return { billing, usage, review, checkout };
}

describe('one tax rule on every money answer', () => {
  it('puts every next bill on the company\'s new country after it changes, and says so on the billing answer', async () => {
    const owner = await companyOwner(t.app, 'tax-rule@example.com');
    // Ordered without a country: $49 and no tax. Then Germany, and a second server ordered there.
    const first = await order(owner, STARTER, true);
    const unpaid = await order(owner, STARTER, false);
    await setCountry(owner, 'DE');
    const second = await order(owner, BASIC, true);
    const de = taxBasis({ country: 'DE', sellerTaxId: SELLER_TAX_ID });
    expect(de).toEqual({ country: 'DE', rate: 19, kind: 'standard' });

    const { billing, checkout } = await everyAnswerAgrees(owner, { paid: [first, second], unpaid }, de);
    // The server ordered before the change is billed on Germany from its next bill on: $49 + 19%.
    expect(billing.subscriptions.find((s: { deploymentId: string }) => s.deploymentId === first).bill).toEqual(expected('49.00', de));
    // Its next bill is the first on the new country, which the billing answer says.
    expect(billing.taxChange).toMatchObject({ from: { country: null, kind: 'noCountry' }, to: de });

    // Paying the unpaid order charges what its checkout said.
    expect((await pay(t.app, owner.cookie, unpaid)).statusCode).toBe(200);
    const after = await get(owner, `/companies/${owner.companyId}/billing`);
    const charged = after.transactions.find((tx: { deploymentId: string }) => tx.deploymentId === unpaid);
    expect([charged.tax, charged.total]).toEqual([checkout.tax, checkout.total.amount]);
  });

  it('charges an upgrade what its review said, on the new country', async () => {
    const owner = await companyOwner(t.app, 'tax-upgrade@example.com');
    const server = await order(owner, STARTER, true);
    await setCountry(owner, 'FR');
    const review = await post(owner, '/deployments/generate-review', { ...changeBody(cat, owner, { planCode: BASIC }), _id: server });
    expect(review.dueNow.basis).toEqual({ country: 'FR', rate: 20, kind: 'standard' });
    const put = await t.app.inject({ method: 'PUT', url: `/api/v1/deployments/${server}`, payload: changeBody(cat, owner, { planCode: BASIC }), headers: { cookie: owner.cookie } });
    expect(put.statusCode).toBe(200);
    expect(put.json().payload.charged).toEqual({ amount: review.amountDueNow, currency: 'USD' });
    expect(put.json().payload.subscription.bill).toEqual(review.next.bill);
    const latest = (await get(owner, `/companies/${owner.companyId}/billing`)).transactions[0];
    expect(latest).toMatchObject({ subtotal: review.dueNow.net, tax: review.dueNow.tax, total: review.dueNow.gross });
  });

  it('follows every later change: a country without VAT, an EU business reverse charged, no country at all', async () => {
    const owner = await companyOwner(t.app, 'tax-moves@example.com');
    await setCountry(owner, 'DE');
    const paid = [await order(owner, STARTER, true), await order(owner, BASIC, true)];
    const unpaid = await order(owner, STARTER, false);
    for (const [country, taxId, basis] of [
      ['US', null, { country: 'US', rate: 0, kind: 'zero' }],
      ['FR', 'FR 40 303 265 045', { country: 'FR', rate: 0, kind: 'reverseCharge' }],
      [null, null, { country: null, rate: 0, kind: 'noCountry' }],
      ['DE', 'DE 811 907 980', { country: 'DE', rate: 19, kind: 'standard' }],
    ] as const) {
      await setCountry(owner, country, taxId);
      const { billing } = await everyAnswerAgrees(owner, { paid, unpaid }, basis);
      expect(billing.taxChange?.to).toEqual(basis);
    }
  });

  it('says no change once every server has been billed on the new country', async () => {
    const owner = await companyOwner(t.app, 'tax-settled@example.com');
    await setCountry(owner, 'DE');
    await order(owner, STARTER, true);
    // The only server was ordered and paid on Germany: nothing is billed on another country any more.
    expect((await get(owner, `/companies/${owner.companyId}/billing`)).taxChange).toBeNull();
  });

  it('tells a stranger naming another company nothing of its country, and changes nothing', async () => {
    const victim = await companyOwner(t.app, 'tax-victim@example.com');
    await setCountry(victim, 'DE');
    const stranger = await companyOwner(t.app, 'tax-stranger@example.com');
    const before = await tableCounts(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: pricingBody(victim, BASIC), headers: { cookie: stranger.cookie } });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('"DE"');
    const usage = await t.app.inject({ method: 'GET', url: `/api/v1/companies/${victim.companyId}/usage`, headers: { cookie: stranger.cookie } });
    expect(usage.statusCode).toBe(403);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
