import { and, eq, isNull, sql } from 'drizzle-orm';
import { decimalToCents } from '../../src/domain/money';
import { documentNumber, type CreditNoteDocument, type DocumentSeries, type InvoiceBuyer, type InvoiceDocument, type InvoiceParty } from '../../src/domain/payments/invoice';
import { taxRate, taxTreatment } from '../../src/domain/pricing/tax';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, creditNotes, deployments, documentCounters, transactions } from '../db/schema';
import { AppError } from '../errors';
import { recordAudit, type AuditActor } from './audit';

type TransactionRow = typeof transactions.$inferSelect;

/** The seller an invoice names, from the settings (the product name when no legal name is set). */
export function sellerParty(config: Pick<Config, 'SELLER_NAME' | 'SELLER_ADDRESS' | 'SELLER_TAX_ID' | 'PRODUCT_NAME'>): InvoiceParty {
  return {
    name: config.SELLER_NAME ?? config.PRODUCT_NAME,
    addressLines: config.SELLER_ADDRESS.split('|')
      .map((l) => l.trim())
      .filter(Boolean),
    taxId: config.SELLER_TAX_ID || null,
  };
}

/**
 * The next number of a series, gapless: the counter row is incremented and stays locked until the
 * caller's transaction ends, so a rolled-back document gives its number back and two concurrent
 * payments get consecutive numbers. Call it inside the transaction that stores the document.
 */
export async function nextDocumentNumber(tx: Db, series: DocumentSeries): Promise<string> {
  const [row] = await tx
    .insert(documentCounters)
    .values({ series, lastNumber: 1 })
    .onConflictDoUpdate({ target: documentCounters.series, set: { lastNumber: sql`${documentCounters.lastNumber} + 1` } })
    .returning({ n: documentCounters.lastNumber });
  if (!row) throw new Error(`no number for series ${series}`);
  return documentNumber(series, row.n);
}

/** A billing address as invoices print it: the street lines, then the postal code and city on one line. */
export function addressLines(address: { billingAddress: string | null; billingPostalCode: string | null; billingCity: string | null }): string[] {
  const street = (address.billingAddress ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const place = [address.billingPostalCode, address.billingCity].filter(Boolean).join(' ');
  return place ? [...street, place] : street;
}

/** The buyer as the company stands now: read in the transaction that records the payment. */
export async function buyerNow(tx: Db, companyId: string, email: string | null): Promise<InvoiceBuyer> {
  const [company] = await tx
    .select({ name: companies.name, country: companies.billingCountry, taxId: companies.taxId, billingAddress: companies.billingAddress, billingPostalCode: companies.billingPostalCode, billingCity: companies.billingCity })
    .from(companies)
    .where(eq(companies.id, companyId));
  return { name: company?.name ?? '', addressLines: company ? addressLines(company) : [], country: company?.country ?? null, taxId: company?.taxId ?? null, email };
}

/** The invoice of a recorded transaction as it stands at this moment: buyer, seller, lines (server, period), tax, amounts. */
async function invoiceDocument(tx: Db, row: TransactionRow, number: string, seller: InvoiceParty): Promise<InvoiceDocument> {
  const buyer = await buyerNow(tx, row.companyId, row.receipt.customerEmail);
  const [server] = row.deploymentId ? await tx.select({ name: deployments.name }).from(deployments).where(eq(deployments.id, row.deploymentId)) : [];
  const period = row.receipt.period ?? null;
  // The pricing engine's own rule (taxTreatment) for these parties: a charge without tax to an EU
  // business that accounts for the VAT itself is a reverse charge, and the invoice says so.
  const treatment = taxTreatment({ country: buyer.country, taxId: buyer.taxId, sellerTaxId: seller.taxId });
  const reverseCharge = treatment.kind === 'reverseCharge' && decimalToCents(row.tax) === 0;
  return {
    number,
    issuedAt: row.billedAt.toISOString(),
    seller,
    buyer,
    lines: row.receipt.lines.map((l) => ({ name: l.name, amount: l.amount, server: server?.name ?? null, period })),
    subtotal: row.subtotal,
    discount: row.discount,
    // The rate of the billing country when the payment was taken; the amount is what was charged.
    taxRate: reverseCharge ? 0 : taxRate(buyer.country),
    reverseCharge,
    tax: row.tax,
    total: row.total,
    currency: row.currency,
    status: row.status,
  };
}

/**
 * Issues the invoice of a transaction just recorded, in the transaction that records it: the
 * vendor's number when the vendor issues the invoice (Paddle, the merchant of record), else the
 * next of our gapless series, and the whole document frozen on the row. Never called twice for a
 * row: the database refuses a change to an issued invoice.
 */
export async function issueInvoice(tx: Db, transactionId: string, seller: InvoiceParty): Promise<InvoiceDocument> {
  const [row] = await tx.select().from(transactions).where(eq(transactions.id, transactionId)).for('update');
  if (!row) throw new Error(`transaction ${transactionId} not found`);
  const number = row.invoiceNumber ?? (await nextDocumentNumber(tx, 'invoice'));
  const document = await invoiceDocument(tx, row, number, seller);
  await tx.update(transactions).set({ invoiceNumber: number, invoice: document }).where(eq(transactions.id, row.id));
  return document;
}

/**
 * The invoice of a transaction recorded before invoices were frozen: frozen once, at its first
 * reading, from what is stored and the company as it is then, under the number it already had (or
 * the vendor's transaction id), so it never changes again. Taking a new number would put an old
 * date on a later number. A concurrent first reading loses the race and reads the winner's copy.
 */
export async function freezeLegacyInvoice(db: Db, row: TransactionRow, seller: InvoiceParty): Promise<InvoiceDocument> {
  if (row.invoice) return row.invoice;
  return db.transaction(async (tx) => {
    const document = await invoiceDocument(tx, row, row.invoiceNumber ?? row.vendorTransactionId, seller);
    const [frozen] = await tx
      .update(transactions)
      .set({ invoice: document })
      .where(and(eq(transactions.id, row.id), isNull(transactions.invoice)))
      .returning({ invoice: transactions.invoice });
    if (frozen?.invoice) return frozen.invoice;
    const [current] = await tx.select({ invoice: transactions.invoice }).from(transactions).where(eq(transactions.id, row.id));
    if (!current?.invoice) throw new Error(`transaction ${row.id} has no invoice`);
    return current.invoice;
  });
}

/**
 * Corrects an issued invoice the only way allowed: a credit note for its whole amount, numbered
 * from its own gapless series, naming the invoice; the invoice itself stays as issued. (Partial
 * credits and a screen to issue them are not built yet.)
 */
export async function issueCreditNote(db: Db, actor: AuditActor | null, input: { companyId: string; transactionId: string; reason: string }): Promise<CreditNoteDocument> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.id, input.transactionId), eq(transactions.companyId, input.companyId)))
      .for('update');
    if (!row) throw new AppError('TRANSACTION_NOT_FOUND');
    const invoice = row.invoice;
    if (!invoice) throw new AppError('TRANSACTION_NOT_FOUND');
    const [already] = await tx.select({ id: creditNotes.id }).from(creditNotes).where(eq(creditNotes.transactionId, row.id));
    if (already) throw new AppError('CONFLICT');
    const number = await nextDocumentNumber(tx, 'credit_note');
    const document: CreditNoteDocument = {
      number,
      issuedAt: new Date().toISOString(),
      invoiceNumber: invoice.number,
      seller: invoice.seller,
      buyer: invoice.buyer,
      reason: input.reason,
      lines: invoice.lines,
      subtotal: invoice.subtotal,
      taxRate: invoice.taxRate,
      reverseCharge: invoice.reverseCharge ?? false,
      tax: invoice.tax,
      total: invoice.total,
      currency: invoice.currency,
    };
    await tx.insert(creditNotes).values({ companyId: row.companyId, transactionId: row.id, number, total: invoice.total, document });
    await recordAudit(tx, { actor, action: 'company.creditNote', targetType: 'company', targetId: row.companyId, companyId: row.companyId, after: { number, transactionId: row.id, invoiceNumber: invoice.number, total: invoice.total } });
    return document;
  });
}
