import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteDto } from '../../src/domain/billing/quotes';
import { invalidatePlanCache } from '../../server/db/catalogueCache';
import { plans } from '../../server/db/schema';
import { waitForMail } from '../support/auth';
import { addMember, companyOwner, count, FREE, loadCatalogue, orderBody, pay, STARTER, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Quotes: an admin freezes a priced order; the company's billing people approve and pay it, or
 * decline it. One quote orders one server at its frozen price until it expires.
 */
let t: TestApp;
let cat: Catalogue;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000', SELLER_NAME: 'Beacon Analytics GmbH', SELLER_ADDRESS: 'Hauptstraße 1 | 10115 Berlin', SELLER_TAX_ID: 'DE123456789' });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(() => t?.close());

type Team = Awaited<ReturnType<typeof team>>;
/** A company in Germany: its admin (who prepares quotes), a billing member and a viewer. */
async function team(prefix: string) {
  const owner = await companyOwner(t.app, `${prefix}-admin@example.com`);
  const put = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload: { name: `${prefix} GmbH`, billingCountry: 'DE', taxId: '' }, headers: { cookie: owner.cookie } });
  expect(put.statusCode, put.body).toBe(200);
  const billing = await addMember(t.app, owner.companyId, `${prefix}-billing@example.com`, 'billing');
  const viewer = await addMember(t.app, owner.companyId, `${prefix}-viewer@example.com`, 'viewer');
  return { owner, billing, viewer, prefix };
}

function quoteOrder(owner: Team['owner'], overrides: Record<string, unknown> = {}) {
  const { company, ...order } = orderBody(cat, owner, { name: 'Analytics for the shop', ...overrides });
  void company;
  return order;
}

const send = (tm: Team, overrides: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1/companies/${tm.owner.companyId}/quotes`, payload: quoteOrder(tm.owner, overrides), headers: { cookie: tm.owner.cookie } });
const sent = async (tm: Team, overrides: Record<string, unknown> = {}) => {
  const res = await send(tm, overrides);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ payload: QuoteDto }>().payload;
};
const approve = (id: string, cookie: string) => t.app.inject({ method: 'POST', url: `/api/v1/quotes/${id}/approve`, headers: { cookie } });
const decline = (id: string, cookie: string, reason: unknown) => t.app.inject({ method: 'POST', url: `/api/v1/quotes/${id}/decline`, payload: { reason }, headers: { cookie } });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie } });
const audits = async (id: string) => (await t.app.database.rows<{ action: string }>(`select action from audit_logs where target_id = '${id}' order by at, action`)).map((r) => r.action);

describe('sending a quote', () => {
  it('freezes the lines the checkout would charge, with the tax of the billing country, a number and 30 days', async () => {
    const tm = await team('q-send');
    const preview = await t.app.inject({ method: 'POST', url: '/api/v1/deployments/generate-preview', payload: { ...quoteOrder(tm.owner), company: tm.owner.companyId }, headers: { cookie: tm.owner.cookie } });
    const priced = preview.json<{ payload: { items: { name: string; amount: string }[]; total: { amount: string }; tax: string } }>().payload;
    const quote = await sent(tm);
    expect(quote.number).toMatch(/^Q-\d{6}$/);
    expect(quote.state).toBe('open');
    expect(quote.document.lines).toEqual(priced.items.map((i) => ({ name: i.name, amount: i.amount })));
    expect(quote.document).toMatchObject({ total: priced.total.amount, tax: priced.tax, taxRate: 19, taxCountry: 'DE', reverseCharge: false, server: { name: 'Analytics for the shop', plan: 'Starter' }, preparedBy: { email: 'q-send-admin@example.com' } });
    expect(quote.document.buyer.name).toBe('q-send GmbH');
    expect(quote.document.seller.name).toBe('Beacon Analytics GmbH');
    const days = (new Date(quote.expiresAt).getTime() - new Date(quote.createdAt).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    // The billing member is mailed the link; the preparer is not.
    const mail = await waitForMail(t.app, 'q-send-billing@example.com', 'quote');
    expect(mail.link).toContain(`#/management/billing/quotes/${quote._id}`);
    expect(mail.text).toContain(quote.number);
    expect(mail.text).toContain(`$${quote.document.total} per billing period`);
    expect(await audits(quote._id)).toEqual(['quote.send']);
  });

  it('yearly quotes say what yearly billing saves', async () => {
    const tm = await team('q-year');
    const quote = await sent(tm, { paymentCycle: 'year' });
    expect(quote.document.cycle).toBe('year');
    expect(Number(quote.document.yearlySaving)).toBeGreaterThan(0);
  });

  it('is refused to viewers and the billing role, and for a free server, with nothing stored', async () => {
    const tm = await team('q-refuse');
    const before = await tableCounts(t.app);
    for (const cookie of [tm.viewer, tm.billing]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/companies/${tm.owner.companyId}/quotes`, payload: quoteOrder(tm.owner), headers: { cookie } });
      expect([res.statusCode, res.json().code]).toEqual([403, 'ROLE_REQUIRED']);
    }
    const free = await send(tm, { planCode: FREE, paymentVendor: 'free' });
    expect(free.statusCode, free.body).toBe(400);
    expect(free.json().payload.errors.plan).toEqual(['A free server needs no approval: order it directly.']);
    const bad = await send(tm, { name: '' });
    expect(bad.statusCode).toBe(400);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('reading a quote', () => {
  it('shows it to the billing role and admins only; anyone else is told it does not exist', async () => {
    const tm = await team('q-read');
    const quote = await sent(tm);
    expect((await get(`/quotes/${quote._id}`, tm.billing)).statusCode).toBe(200);
    expect((await get(`/quotes/${quote._id}`, tm.owner.cookie)).statusCode).toBe(200);
    const stranger = await companyOwner(t.app, 'q-read-stranger@example.com');
    for (const cookie of [tm.viewer, stranger.cookie]) {
      for (const url of [`/quotes/${quote._id}`, `/quotes/${quote._id}/document`]) {
        const res = await get(url, cookie);
        expect([res.statusCode, res.json().code]).toEqual([404, 'QUOTE_NOT_FOUND']);
      }
    }
    const list = (await get(`/companies/${tm.owner.companyId}/quotes`, tm.billing)).json<{ payload: QuoteDto[] }>().payload;
    expect(list.map((q) => [q.number, q.state])).toEqual([[quote.number, 'open']]);
  });

  it('prints as a one-page document: seller, buyer, number, dates, lines, tax, total and currency', async () => {
    const tm = await team('q-doc');
    const quote = await sent(tm);
    const res = await get(`/quotes/${quote._id}/document`, tm.billing);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const text = res.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Quote No. ${quote.number} · `);
    expect(text).toMatch(/valid until [A-Z][a-z]+ \d{1,2}, \d{4} · Status: Open for approval/);
    expect(text).toContain('Seller Beacon Analytics GmbH Hauptstraße 1 10115 Berlin Tax ID: DE123456789');
    expect(text).toContain('Quote for q-doc GmbH Germany');
    expect(text).toContain('Prepared by');
    expect(text).toContain('Server: Analytics for the shop · Plan: Starter');
    expect(text).toContain(`Tax (19%, Germany) $${quote.document.tax}`);
    expect(text).toContain(`Total $${quote.document.total}`);
    expect(text).toContain('Amount (USD)');
  });
});

describe('approving and paying', () => {
  it('orders the server at the quoted price even after the catalogue changed, and pays exactly that', async () => {
    const tm = await team('q-price');
    const quote = await sent(tm);
    const [starter] = await t.app.database.db.select({ base: plans.basePriceCents }).from(plans).where(eq(plans.code, STARTER));
    await t.app.database.db.update(plans).set({ basePriceCents: (starter?.base ?? 0) + 10_000 }).where(eq(plans.code, STARTER));
    invalidatePlanCache(t.app.database.db);
    try {
      const res = await approve(quote._id, tm.billing);
      expect(res.statusCode, res.body).toBe(200);
      const { deploymentId } = res.json<{ payload: { deploymentId: string } }>().payload;
      // Ordered by the approver, for the preparer: theirs is the server (and its dashboard's first admin).
      const [made] = await t.app.database.rows<{ email: string }>(`select u.email from deployments d join users u on u.id = d.created_by where d.id = '${deploymentId}'`);
      expect(made?.email).toBe('q-price-admin@example.com');
      const [sub] = await t.app.database.rows<{ total: string }>(`select quote->>'total' as total from subscriptions where deployment_id = '${deploymentId}'`);
      expect(sub?.total).toBe(quote.quote.total);
      const checkout = (await get(`/payments/checkout/${deploymentId}`, tm.billing)).json<{ payload: { total: { amount: string } } }>().payload;
      expect(checkout.total.amount).toBe(quote.quote.total);
      // The billing member pays; the payment is the quote's, once.
      expect((await pay(t.app, tm.billing, deploymentId)).statusCode).toBe(200);
      const [tx] = await t.app.database.rows<{ total: string }>(`select total from transactions where deployment_id = '${deploymentId}'`);
      expect(tx?.total).toBe(quote.quote.total);
      expect(await audits(quote._id)).toEqual(expect.arrayContaining(['quote.send', 'quote.approve', 'quote.pay']));
      const after = (await get(`/quotes/${quote._id}`, tm.owner.cookie)).json<{ payload: QuoteDto }>().payload;
      expect(after).toMatchObject({ state: 'approved', paid: true, deploymentId });
      // The preparer was told.
      expect((await waitForMail(t.app, 'q-price-admin@example.com', 'approved')).text).toContain(quote.number);
      // Paid: it can't be approved again.
      const again = await approve(quote._id, tm.owner.cookie);
      expect([again.statusCode, again.json().code]).toEqual([409, 'QUOTE_USED']);
    } finally {
      await t.app.database.db.update(plans).set({ basePriceCents: starter?.base ?? 0 }).where(eq(plans.code, STARTER));
      invalidatePlanCache(t.app.database.db);
    }
  });

  it('makes one server and one charge when two approvers approve at once', async () => {
    const tm = await team('q-race');
    const quote = await sent(tm);
    const servers = await count(t.app, 'deployments');
    const answers = await Promise.all([approve(quote._id, tm.billing), approve(quote._id, tm.owner.cookie), approve(quote._id, tm.billing)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const ids = new Set(answers.map((a) => a.json<{ payload: { deploymentId: string } }>().payload.deploymentId));
    expect(ids.size).toBe(1);
    expect(await count(t.app, 'deployments')).toBe((servers ?? 0) + 1);
    const [deploymentId] = [...ids] as [string];
    const payments = await Promise.all([pay(t.app, tm.billing, deploymentId), pay(t.app, tm.owner.cookie, deploymentId)]);
    // Both are answered (the later one finds the payment taken or under way); one is charged.
    expect(payments.map((p) => p.statusCode)).toEqual([200, 200]);
    const [sub] = await t.app.database.rows<{ status: string }>(`select status from subscriptions where deployment_id = '${deploymentId}'`);
    expect(sub?.status).toBe('active');
    expect(await count(t.app, `transactions where deployment_id = '${deploymentId}'`)).toBe(1);
    expect((await audits(quote._id)).filter((a) => a === 'quote.approve')).toHaveLength(1);
  });

  it('refuses an expired or declined quote with a clear message, creating nothing', async () => {
    const tm = await team('q-closed');
    const expired = await sent(tm);
    await t.app.database.rows(`update quotes set expires_at = now() - interval '1 minute' where id = '${expired._id}'`);
    const declined = await sent(tm, { name: 'Second server' });
    const refusedDecline = await decline(declined._id, tm.billing, '  ');
    expect(refusedDecline.statusCode).toBe(400);
    expect((await decline(declined._id, tm.billing, 'x'.repeat(501))).statusCode).toBe(400);
    const res = await decline(declined._id, tm.billing, 'Over budget this quarter');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ payload: QuoteDto }>().payload).toMatchObject({ state: 'declined', declineReason: 'Over budget this quarter' });
    const mail = await waitForMail(t.app, 'q-closed-admin@example.com', 'declined');
    expect(mail.text).toContain('Over budget this quarter');
    const before = await tableCounts(t.app);
    const late = await approve(expired._id, tm.billing);
    expect([late.statusCode, late.json().code]).toEqual([409, 'QUOTE_EXPIRED']);
    expect(late.json().message).toContain('expired');
    const no = await approve(declined._id, tm.billing);
    expect([no.statusCode, no.json().code]).toEqual([409, 'QUOTE_DECLINED']);
    expect(await tableCounts(t.app)).toEqual(before);
    const list = (await get(`/companies/${tm.owner.companyId}/quotes`, tm.billing)).json<{ payload: QuoteDto[] }>().payload;
    expect(Object.fromEntries(list.map((q) => [q.number, q.state]))).toEqual({ [expired.number]: 'expired', [declined.number]: 'declined' });
    expect(await audits(declined._id)).toEqual(['quote.send', 'quote.decline']);
  });

  it('is refused to a viewer, who is told the quote does not exist', async () => {
    const tm = await team('q-viewer');
    const quote = await sent(tm);
    const before = await tableCounts(t.app);
    const res = await approve(quote._id, tm.viewer);
    expect([res.statusCode, res.json().code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});
