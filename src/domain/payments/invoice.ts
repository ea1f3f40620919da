/**
 * Invoices and credit notes as issued: the whole document is frozen on the transaction when the
 * payment is recorded, and every later rendering reads only that copy. A company renamed, moved
 * to another country or a tax rate changed since leaves an issued document as it was; a mistake
 * is corrected by a credit note, never by editing the invoice.
 */

export interface InvoiceParty {
  name: string;
  addressLines: string[];
  taxId: string | null;
}

export interface InvoiceBuyer {
  name: string;
  /** The billing address at the moment of payment: street lines, then postal code and city (absent on invoices issued before addresses were kept). */
  addressLines?: string[];
  /** ISO 3166-1 alpha-2 billing country at the moment of payment, or null. */
  country: string | null;
  taxId: string | null;
  email: string | null;
}

/** A period of service, ISO instants: what a line pays for, from its start to its end. */
export interface ServicePeriod {
  from: string;
  to: string;
}

/** One line of an invoice: what was bought (named as on the order), for which server and which period. */
export interface InvoiceLine {
  name: string;
  amount: string;
  /** The server's name when the payment was taken (absent on invoices issued before it was kept). */
  server?: string | null;
  period?: ServicePeriod | null;
}

/** What an invoice says: every amount a decimal string as charged, dates as ISO strings (JSON-safe). */
export interface InvoiceDocument {
  number: string;
  issuedAt: string;
  seller: InvoiceParty;
  buyer: InvoiceBuyer;
  lines: InvoiceLine[];
  subtotal: string;
  discount: string;
  /** Percent, as the pricing engine took it for the buyer's billing country at the moment of payment. */
  taxRate: number;
  /** No VAT charged: the buyer, an EU business, accounts for it (taxTreatment); the invoice says so in the legal wording. */
  reverseCharge?: boolean;
  tax: string;
  total: string;
  currency: string;
  status: string;
}

/** A credit note: the amounts taken back from one invoice, which itself stays as issued. */
export interface CreditNoteDocument {
  number: string;
  issuedAt: string;
  /** The number of the invoice it corrects. */
  invoiceNumber: string;
  seller: InvoiceParty;
  buyer: InvoiceBuyer;
  reason: string;
  lines: InvoiceLine[];
  subtotal: string;
  taxRate: number;
  reverseCharge?: boolean;
  tax: string;
  total: string;
  currency: string;
}

/** The gapless series documents are numbered from: each its own counter. */
export const DOCUMENT_SERIES = ['invoice', 'credit_note', 'quote'] as const;
export type DocumentSeries = (typeof DOCUMENT_SERIES)[number];

const PREFIX: Record<DocumentSeries, string> = { invoice: 'INV', credit_note: 'CN', quote: 'Q' };

/** INV-000042: the series prefix and the counter, padded so numbers sort as they were issued up to a million. */
export const documentNumber = (series: DocumentSeries, n: number) => `${PREFIX[series]}-${String(n).padStart(6, '0')}`;
