import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, BASIC, changeBody, companyOwner, loadCatalogue, orderBody, pay, postOrder, type Catalogue } from '../support/orders';
import { formatMoney } from '../../src/domain/money';
import { paddleSettings, startFakePaddle } from '../support/paddle';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

// Each paid transaction has an invoice a finance team accepts.
let t: TestApp; // stand-in: our own printable invoice
let p: TestApp; // Paddle: its own invoice PDF
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let cat: Catalogue;

beforeAll(async () => {
  fake = await startFakePaddle();
  const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };
  t = await createTestApp({ ...limits, SELLER_NAME: 'Beacon Analytics GmbH', SELLER_ADDRESS: 'Hauptstraße 1 | 10115 Berlin', SELLER_TAX_ID: 'DE123456789' });
  p = await createTestApp({ ...limits, ...paddleSettings(fake.url) });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
  await p.close();
  fake.close();
});

const invoiceUrl = (companyId: string, txId: string) => `/api/v1/companies/${companyId}/transactions/${txId}/invoice`;
const get = (app: TestApp['app'], url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });

/** An owner in Germany with a tax id, and one paid Starter order: its transaction id. */
async function paidInGermany(email: string, name: string) {
  const owner = await companyOwner(t.app, email);
  const put = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload: { name, billingCountry: 'DE', taxId: 'DE 811 907 980' }, headers: { cookie: owner.cookie } });
  expect(put.statusCode).toBe(200);
  expect(put.json().payload).toMatchObject({ billingCountry: 'DE', taxId: 'DE 811 907 980' });
  const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload._id as string;
  expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
  const billing = (await get(t.app, `/api/v1/companies/${owner.companyId}/billing`, owner.cookie)).json().payload;
  return { owner, txId: billing.transactions[0]._id as string, tx: billing.transactions[0] as { subtotal: string; tax: string; total: string; invoiceNumber: string } };
}

describe('the printable invoice (stand-in)', () => {
  it('shows seller, buyer with country and tax id, number, date, lines, tax at the billing country rate and total, in one money format', async () => {
    const { owner, txId, tx } = await paidInGermany('invoice-de@example.com', 'Müller Analytics');
    // Starter is $49 a month; Germany's 19% as the pricing engine computes it.
    expect(tx).toMatchObject({ subtotal: '49.00', tax: '9.31', total: '58.31' });
    const res = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['cache-control']).toBe('private, no-store');
    const text = res.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Invoice No. ${tx.invoiceNumber} · `);
    expect(text).toMatch(/· [A-Z][a-z]+ \d{1,2}, \d{4} · Status: Paid/);
    expect(text).toContain('Seller Beacon Analytics GmbH Hauptstraße 1 10115 Berlin Tax ID: DE123456789');
    expect(text).toContain('Bill to Müller Analytics Germany Tax ID: DE 811 907 980 invoice-de@example.com');
    expect(text).toContain('Starter $49.00');
    expect(text).toContain('Subtotal $49.00 Tax (19%) $9.31 Total $58.31');
    // No script but the same-origin print script of "Download PDF".
    expect(res.body.match(/<script[^>]*>/g)).toEqual(['<script src="/api/v1/documents/print.js" defer>']);
  });

  it('says on the invoice of an upgrade the tax and total the quote said, to the cent', async () => {
    const { owner } = await paidInGermany('invoice-upgrade@example.com', 'Upgrade GmbH');
    const upgrade = { _id: '', ...changeBody(cat, owner, { planCode: BASIC }) };
    const deploymentId = (await t.app.database.rows<{ id: string }>(`select id from deployments where company_id = '${owner.companyId}'`))[0]?.id ?? '';
    const quoted = (await t.app.inject({ method: 'POST', url: '/api/v1/deployments/generate-review', payload: { ...upgrade, _id: deploymentId }, headers: { cookie: owner.cookie } })).json().payload;
    expect(Number(quoted.taxDueNow)).toBeGreaterThan(0);
    expect(quoted.next.tax).toMatch(/^\d+\.\d{2}$/);
    const put = await t.app.inject({ method: 'PUT', url: `/api/v1/deployments/${deploymentId}`, payload: changeBody(cat, owner, { planCode: BASIC }), headers: { cookie: owner.cookie } });
    expect(put.statusCode).toBe(200);
    const billing = (await get(t.app, `/api/v1/companies/${owner.companyId}/billing`, owner.cookie)).json().payload;
    const latest = billing.transactions[0];
    expect(latest).toMatchObject({ tax: quoted.taxDueNow, total: quoted.amountDueNow });
    const text = (await get(t.app, invoiceUrl(owner.companyId, latest._id), owner.cookie)).body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(`Tax (19%) ${formatMoney(quoted.taxDueNow, { cents: 'always' })} Total ${formatMoney(quoted.amountDueNow, { cents: 'always' })}`);
  });

  it('lets an admin of the company open it, not only its owner', async () => {
    const { owner, txId } = await paidInGermany('invoice-viewer@example.com', 'Viewer Works');
    // Invoices are the receipts' role (admins): a viewer is refused (security.invoices.test.ts).
    const admin = await addMember(t.app, owner.companyId, 'invoice-admin-2@example.com', 'admin');
    const res = await get(t.app, invoiceUrl(owner.companyId, txId), admin);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Viewer Works');
  });

  it('escapes customer-provided names: a company name and a line stay text', async () => {
    const owner = await companyOwner(t.app, 'invoice-escape@example.com');
    // A name stored before today's rules, and a line as a vendor could send it, on a transaction
    // recorded before invoices were frozen: its invoice is frozen from them at its first reading.
    await t.app.database.rows(`update companies set name = '<script>alert(1)</script><img src=x onerror=alert(2)>' where id = '${owner.companyId}'`);
    const [tx] = await t.app.database.rows<{ id: string }>(
      `insert into transactions (company_id, vendor_transaction_id, invoice_number, status, currency, subtotal, discount, tax, total, billed_at, receipt)
       values ('${owner.companyId}', 'txn_01escape', 'SI-20250101-000001', 'completed', 'USD', 49, 0, 0, 49, now(), '{"customerEmail":null,"lines":[{"name":"Starter</td><b>bold</b>","amount":"49.00"}],"card":null}') returning id`,
    );
    const res = await get(t.app, invoiceUrl(owner.companyId, tx?.id ?? ''), owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(res.body).toContain('Starter&lt;/td&gt;&lt;b&gt;bold&lt;/b&gt;');
    expect(res.body.replace('<script src="/api/v1/documents/print.js" defer></script>', '')).not.toMatch(/<script|<img|<b>/);
  });

  it('escapes a name accepted through the API today', async () => {
    const { owner, txId } = await paidInGermany('invoice-amp@example.com', 'Smith & Sons "<Ltd"');
    const res = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(res.body).toContain('Smith &amp; Sons &quot;&lt;Ltd&quot;');
  });

  it('refuses a stranger (403), another company’s transaction (404), a bad id (404) and no session (401), changing nothing and leaking nothing', async () => {
    const { owner, txId } = await paidInGermany('invoice-owner@example.com', 'Secret Buyer');
    const stranger = await companyOwner(t.app, 'invoice-stranger@example.com');
    const before = await tableCounts(t.app);
    const forbidden = await get(t.app, invoiceUrl(owner.companyId, txId), stranger.cookie);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('NOT_A_MEMBER');
    // Naming their own company with someone else's transaction: not found, nothing of it shown.
    const crossed = await get(t.app, invoiceUrl(stranger.companyId, txId), stranger.cookie);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().code).toBe('TRANSACTION_NOT_FOUND');
    expect((await get(t.app, invoiceUrl(owner.companyId, 'not-a-uuid'), owner.cookie)).json().code).toBe('TRANSACTION_NOT_FOUND');
    const anonymous = await t.app.inject({ method: 'GET', url: invoiceUrl(owner.companyId, txId) });
    expect(anonymous.statusCode).toBe(401);
    for (const res of [forbidden, crossed, anonymous]) expect(res.body).not.toMatch(/Secret Buyer|58\.31|Starter/);
    expect(await tableCounts(t.app)).toEqual(before);
  });

  it('keeps a tax id out when it is not given, and refuses one with markup, changing nothing', async () => {
    const owner = await companyOwner(t.app, 'invoice-notax@example.com');
    const before = await tableCounts(t.app);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload: { name: 'No Tax Co', taxId: '<b>DE1</b>' }, headers: { cookie: owner.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().payload.errors.taxId).toEqual(['Use up to 40 letters, digits, spaces, dots, dashes or slashes.']);
    expect(await tableCounts(t.app)).toEqual(before);
    const [row] = await t.app.database.rows<{ name: string; tax_id: string | null }>(`select name, tax_id from companies where id = '${owner.companyId}'`);
    expect(row).toEqual({ name: 'Company of invoice-notax', tax_id: null });
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner))).json().payload._id as string;
    await pay(t.app, owner.cookie, id);
    const txId = (await get(t.app, `/api/v1/companies/${owner.companyId}/billing`, owner.cookie)).json().payload.transactions[0]._id as string;
    const text = (await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie)).body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    // The seller's tax id only: the buyer gave none.
    expect(text).toContain('Bill to Company of invoice-notax invoice-notax@example.com Description');
    expect(text.match(/Tax ID/g)).toHaveLength(1);
    // No billing country: no tax.
    expect(text).toContain('Subtotal $49.00 Tax $0.00 Total $49.00');
  });
});

describe('with Paddle configured', () => {
  it("sends the member to Paddle's own invoice PDF for the transaction, and a stranger nowhere", async () => {
    const owner = await companyOwner(p.app, 'paddle-invoice@example.com');
    const stranger = await companyOwner(p.app, 'paddle-stranger@example.com');
    const [tx] = await p.app.database.rows<{ id: string }>(
      `insert into transactions (company_id, vendor_transaction_id, invoice_number, status, currency, subtotal, discount, tax, total, billed_at, receipt)
       values ('${owner.companyId}', 'txn_01paddle', '325-10566', 'completed', 'USD', 49, 0, 9.31, 58.31, now(), '{"customerEmail":null,"lines":[],"card":null}') returning id`,
    );
    const res = await get(p.app, invoiceUrl(owner.companyId, tx?.id ?? ''), owner.cookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://paddle.example/invoices/txn_01paddle.pdf');
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', url: '/transactions/txn_01paddle/invoice', auth: 'Bearer pdl_sdbx_apikey_test' });
    const calls = fake.calls.length;
    const refused = await get(p.app, invoiceUrl(owner.companyId, tx?.id ?? ''), stranger.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.location).toBeUndefined();
    expect(fake.calls.length).toBe(calls);
  });
});
