import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { addMember, companyOwner, loadCatalogue, orderBody, pay, postOrder, STARTER, type Catalogue } from '../support/orders';
import { paddlePaysOrder, paddleSettings, startFakePaddle } from '../support/paddle';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';
import { issueCreditNote, nextDocumentNumber } from '../../server/services/invoices';
import type { InvoiceDocument } from '../../src/domain/payments/invoice';

/**
 * An issued invoice never changes, invoice numbers are gapless, and opening invoices costs the
 * shop's Paddle quota only for those allowed to, once per link: each attack through the API,
 * asserting it fails and that nothing changed (rows, the frozen document, calls to Paddle).
 */

let t: TestApp; // stand-in: we issue the invoices
let p: TestApp; // Paddle: its own invoice PDF
let fake: Awaited<ReturnType<typeof startFakePaddle>>;
let cat: Catalogue;
const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };

beforeAll(async () => {
  fake = await startFakePaddle();
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
const receiptUrl = (companyId: string, txId: string) => `/api/v1/companies/${companyId}/transactions/${txId}/receipt`;
const get = (app: FastifyInstance, url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });
const putCompany = (app: FastifyInstance, owner: { companyId: string; cookie: string }, payload: Record<string, unknown>) =>
  app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload, headers: { cookie: owner.cookie } });
const frozenRow = async (app: FastifyInstance, txId: string) =>
  (await app.database.rows<{ invoice_number: string | null; invoice: InvoiceDocument | null; total: string }>(`select invoice_number, invoice, total::text from transactions where id = '${txId}'`))[0];
/** A statement the database refused: drizzle wraps the trigger's error as the cause. */
const refusedBy = (message: RegExp) => ({ cause: expect.objectContaining({ message: expect.stringMatching(message) }) });
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/** A company owner with one paid Starter order (stand-in): the owner and the transaction id. */
async function paidOrder(app: FastifyInstance, email: string, company?: Record<string, unknown>) {
  const owner = await companyOwner(app, email);
  if (company) expect((await putCompany(app, owner, company)).statusCode).toBe(200);
  const id = (await postOrder(app, owner.cookie, orderBody(cat, owner))).json().payload._id as string;
  expect((await pay(app, owner.cookie, id)).statusCode).toBe(200);
  const [tx] = await app.database.rows<{ id: string }>(`select id from transactions where deployment_id = '${id}'`);
  return { owner, txId: tx?.id ?? '' };
}

describe('an issued invoice stays as it was issued', () => {
  it('renders the same document after the company is renamed, moves to a country of another tax rate and changes its tax id', async () => {
    const { owner, txId } = await paidOrder(t.app, 'frozen@example.com', { name: 'Original GmbH', billingCountry: 'DE', taxId: 'DE 811 907 980' });
    const issued = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(issued.statusCode).toBe(200);
    expect(text(issued.body)).toContain('Bill to Original GmbH Germany Tax ID: DE 811 907 980 frozen@example.com');
    expect(text(issued.body)).toContain('Subtotal $49.00 Tax (19%) $9.31 Total $58.31');
    const row = await frozenRow(t.app, txId);
    expect(row?.invoice).toMatchObject({ number: row?.invoice_number, buyer: { name: 'Original GmbH', country: 'DE', taxId: 'DE 811 907 980' }, seller: { name: 'Beacon Analytics GmbH', taxId: 'DE123456789' }, taxRate: 19, tax: '9.31' });

    // Everything the old page read from changes: the company, its country and with it the rate (19% to 20%).
    expect((await putCompany(t.app, owner, { name: 'Renamed SARL', billingCountry: 'FR', taxId: 'FR 40 303 265 045' })).statusCode).toBe(200);
    const later = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(later.statusCode).toBe(200);
    expect(later.body).toBe(issued.body);
    expect(await frozenRow(t.app, txId)).toEqual(row);

    // The changes are real: an invoice issued now says them.
    const id = (await postOrder(t.app, owner.cookie, orderBody(cat, owner, { name: 'Second server' }))).json().payload._id as string;
    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    const [second] = await t.app.database.rows<{ id: string }>(`select id from transactions where deployment_id = '${id}'`);
    const now = text((await get(t.app, invoiceUrl(owner.companyId, second?.id ?? ''), owner.cookie)).body);
    expect(now).toContain('Bill to Renamed SARL France Tax ID: FR 40 303 265 045');
    // A French business with its VAT id, buying from a German seller: reverse charged (invoiceDocuments.test.ts).
    expect(now).toContain('Subtotal $49.00 Reverse charge $0.00 Total $49.00');
  });

  it('freezes an invoice recorded before freezing existed at its first reading, under its own number, and never changes it after', async () => {
    const owner = await companyOwner(t.app, 'legacy@example.com');
    expect((await putCompany(t.app, owner, { name: 'Legacy Ltd', billingCountry: 'GB' })).statusCode).toBe(200);
    const [tx] = await t.app.database.rows<{ id: string }>(
      `insert into transactions (company_id, vendor_transaction_id, invoice_number, status, currency, subtotal, discount, tax, total, billed_at, receipt)
       values ('${owner.companyId}', 'txn_01legacy', 'SI-20250301-123456', 'completed', 'USD', 49, 0, 9.80, 58.80, '2025-03-01T10:00:00Z', '{"customerEmail":"legacy@example.com","lines":[{"name":"Starter","amount":"49.00"}],"card":null}') returning id`,
    );
    const txId = tx?.id ?? '';
    expect((await frozenRow(t.app, txId))?.invoice).toBeNull();
    const first = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(first.statusCode).toBe(200);
    expect(text(first.body)).toContain('Invoice No. SI-20250301-123456 · March 1, 2025');
    expect(text(first.body)).toContain('Bill to Legacy Ltd United Kingdom');
    const row = await frozenRow(t.app, txId);
    expect(row).toMatchObject({ invoice_number: 'SI-20250301-123456', invoice: { number: 'SI-20250301-123456', buyer: { name: 'Legacy Ltd', country: 'GB' }, taxRate: 20 } });

    expect((await putCompany(t.app, owner, { name: 'Legacy Renamed', billingCountry: 'DE' })).statusCode).toBe(200);
    const later = await get(t.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(later.body).toBe(first.body);
    expect(await frozenRow(t.app, txId)).toEqual(row);
  });

  it('refuses any edit of an issued invoice in the database; a credit note, numbered from its own series, corrects it', async () => {
    const { owner, txId } = await paidOrder(t.app, 'credit@example.com', { name: 'Credit Co', billingCountry: 'DE' });
    const row = await frozenRow(t.app, txId);
    const before = await tableCounts(t.app);
    await expect(t.app.database.rows(`update transactions set invoice = jsonb_set(invoice, '{buyer,name}', '"Someone Else"') where id = '${txId}'`)).rejects.toMatchObject(refusedBy(/issued invoice cannot be changed/));
    await expect(t.app.database.rows(`update transactions set invoice_number = 'INV-999999' where id = '${txId}'`)).rejects.toMatchObject(refusedBy(/issued invoice cannot be changed/));
    await expect(t.app.database.rows(`update transactions set total = 1 where id = '${txId}'`)).rejects.toMatchObject(refusedBy(/issued invoice cannot be changed/));
    expect(await frozenRow(t.app, txId)).toEqual(row);
    expect(await tableCounts(t.app)).toEqual(before);

    const db = t.app.database.db;
    const note = await issueCreditNote(db, null, { companyId: owner.companyId, transactionId: txId, reason: 'Ordered twice' });
    expect(note).toMatchObject({ invoiceNumber: row?.invoice_number, total: '58.31', tax: '9.31', taxRate: 19, buyer: { name: 'Credit Co' }, reason: 'Ordered twice' });
    // A second correction of the same invoice is refused; another company's transaction is not found.
    await expect(issueCreditNote(db, null, { companyId: owner.companyId, transactionId: txId, reason: 'again' })).rejects.toMatchObject({ code: 'CONFLICT' });
    const stranger = await companyOwner(t.app, 'credit-stranger@example.com');
    await expect(issueCreditNote(db, null, { companyId: stranger.companyId, transactionId: txId, reason: 'not theirs' })).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    const other = await paidOrder(t.app, 'credit-2@example.com');
    const second = await issueCreditNote(db, null, { companyId: other.owner.companyId, transactionId: other.txId, reason: 'Refund' });
    const n = (s: string) => Number(s.replace(/^CN-/, ''));
    expect(n(second.number)).toBe(n(note.number) + 1);
    const notes = await t.app.database.rows<{ number: string }>(`select number from credit_notes order by number`);
    expect(notes.map((r) => r.number)).toEqual([note.number, second.number]);
    await expect(t.app.database.rows(`update credit_notes set total = 0 where number = '${note.number}'`)).rejects.toMatchObject(refusedBy(/credit note cannot be changed/));
    // The invoice itself stays as issued.
    expect(await frozenRow(t.app, txId)).toEqual(row);
  });
});

describe('invoice numbers', () => {
  it('are consecutive and unique across payments, concurrent ones too, and a rolled-back issue gives its number back', async () => {
    await paidOrder(t.app, 'numbers-0@example.com');
    const owners = await Promise.all([1, 2, 3, 4, 5].map((i) => companyOwner(t.app, `numbers-${i}@example.com`)));
    const orders = await Promise.all(owners.map(async (o) => ({ o, id: (await postOrder(t.app, o.cookie, orderBody(cat, o))).json().payload._id as string })));
    const paid = await Promise.all(orders.map(({ o, id }) => pay(t.app, o.cookie, id)));
    expect(paid.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);

    // A number taken in a transaction that fails is not lost.
    await expect(
      t.app.database.db.transaction(async (tx) => {
        await nextDocumentNumber(tx, 'invoice');
        throw new Error('payment failed after numbering');
      }),
    ).rejects.toThrow('payment failed');
    await paidOrder(t.app, 'numbers-6@example.com');

    const rows = await t.app.database.rows<{ invoice_number: string; number: string }>(`select invoice_number, invoice->>'number' as number from transactions where invoice_number like 'INV-%'`);
    expect(rows.length).toBeGreaterThanOrEqual(7);
    for (const r of rows) expect(r.number).toBe(r.invoice_number);
    const numbers = rows.map((r) => Number(r.invoice_number.replace(/^INV-/, ''))).sort((a, b) => a - b);
    // Every invoice this database issued: 1, 2, 3 … with no gap and no repeat.
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    for (const r of rows) expect(r.invoice_number).toMatch(/^INV-\d{6}$/);
  });
});

describe('who opens invoices and receipts, and what it costs Paddle', () => {
  /** A company whose Starter order Paddle has paid, with a viewer and a second admin. */
  async function paddlePaid(email: string) {
    const owner = await companyOwner(p.app, email);
    const created = (await postOrder(p.app, owner.cookie, orderBody(cat, owner, { planCode: STARTER, name: 'Paid at Paddle' }))).json().payload;
    const ids = created.provisionSummary.dataToVendor.customData as { deploymentId: string; subscriptionId: string; companyId: string };
    const subscription = { id: `sub_${ids.subscriptionId.slice(0, 8)}`, status: 'active', customer_id: 'ctm_inv', current_billing_period: { starts_at: '2030-01-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' }, next_billed_at: '2030-02-01T00:00:00Z', custom_data: ids };
    for (const res of await paddlePaysOrder(p.app, created, subscription)) expect(res.json().payload.outcome).toBe('applied');
    const [tx] = await p.app.database.rows<{ id: string; vendor_transaction_id: string }>(`select id, vendor_transaction_id from transactions where deployment_id = '${ids.deploymentId}'`);
    const viewer = await addMember(p.app, owner.companyId, `viewer-${email}`, 'viewer');
    const admin = await addMember(p.app, owner.companyId, `admin-${email}`, 'admin');
    return { owner, viewer, admin, txId: tx?.id ?? '', vendorId: tx?.vendor_transaction_id ?? '' };
  }
  const invoiceCalls = (vendorId: string) => fake.calls.filter((c) => c.url === `/transactions/${vendorId}/invoice`).length;

  it('refuses a viewer the invoice and the receipt (403), with no call to Paddle and nothing changed', async () => {
    const { owner, viewer, txId, vendorId } = await paddlePaid('viewer-refused@example.com');
    const calls = fake.calls.length;
    const before = await tableCounts(p.app);
    const row = await frozenRow(p.app, txId);
    const attempts = await Promise.all(Array.from({ length: 60 }, () => get(p.app, invoiceUrl(owner.companyId, txId), viewer)));
    const receipt = await get(p.app, receiptUrl(owner.companyId, txId), viewer);
    for (const res of [...attempts, receipt]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('BILLING_ROLE_REQUIRED');
      expect(res.headers.location).toBeUndefined();
      expect(res.body).not.toMatch(/paddle\.example|58\.31|49\.00/);
    }
    expect(fake.calls.length).toBe(calls);
    expect(invoiceCalls(vendorId)).toBe(0);
    expect(await tableCounts(p.app)).toEqual(before);
    expect(await frozenRow(p.app, txId)).toEqual(row);
    // The stand-in's page and receipt too.
    const local = await paidOrder(t.app, 'viewer-local@example.com');
    const localViewer = await addMember(t.app, local.owner.companyId, 'viewer-local-2@example.com', 'viewer');
    for (const url of [invoiceUrl(local.owner.companyId, local.txId), receiptUrl(local.owner.companyId, local.txId)]) {
      const res = await get(t.app, url, localViewer);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('Starter');
    }
  });

  it("asks Paddle once for 60 parallel openings by an admin, and answers 429 past the user's budget without asking again", async () => {
    const { owner, admin, txId, vendorId } = await paddlePaid('admin-burst@example.com');
    const burst = await Promise.all(Array.from({ length: 60 }, () => get(p.app, invoiceUrl(owner.companyId, txId), admin)));
    expect(burst.map((r) => r.statusCode)).toEqual(Array.from({ length: 60 }, () => 302));
    expect(new Set(burst.map((r) => r.headers.location))).toEqual(new Set([`https://paddle.example/invoices/${vendorId}.pdf`]));
    expect(invoiceCalls(vendorId)).toBe(1);

    const calls = fake.calls.length;
    const over = await get(p.app, invoiceUrl(owner.companyId, txId), admin);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('RATE_LIMITED');
    expect(over.headers.location).toBeUndefined();
    expect(fake.calls.length).toBe(calls);
    // The budget is the user's, not the company's: the owner still opens it, from the kept link.
    const ownerOpens = await get(p.app, invoiceUrl(owner.companyId, txId), owner.cookie);
    expect(ownerOpens.statusCode).toBe(302);
    expect(invoiceCalls(vendorId)).toBe(1);
  });
});
