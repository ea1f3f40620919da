import type { TFunction } from 'i18next';
import { decimalToCents, formatMoney } from '../../src/domain/money';
import type { InvoiceDocument, InvoiceLine } from '../../src/domain/payments/invoice';
import type { QuoteDocument, QuoteState } from '../../src/domain/billing/quotes';
import type { CardSummary } from '../../src/domain/payments/schemas';
import { cardBrand } from '../../src/ui/format';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Company names and lines are customer text: nothing of theirs may become markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Where the pages' one script is served: it only makes "Download PDF" open the browser's print dialog. */
export const PRINT_SCRIPT_PATH = '/api/v1/documents/print.js';

/**
 * The script itself, a file of its own so the pages' policy allows scripts from our origin only
 * (script-src 'self'), never inline: the button asks the browser to print, where "Save as PDF"
 * makes the PDF.
 */
export const PRINT_SCRIPT = "document.addEventListener('click', function (e) { if (e.target instanceof Element && e.target.closest('[data-print]')) window.print(); });\n";

/** The policy of the invoice and receipt pages: their own styles, our print script, nothing else. */
export const DOCUMENT_CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

const longDate = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
const shortDate = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

// A4 paper when printed (Letter prints it scaled); narrow screens stack the two parties.
const STYLE = `
@page{size:A4;margin:16mm 14mm}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;margin:0;background:#f4f5f7}
main{position:relative;max-width:760px;margin:32px auto;background:#fff;padding:40px;box-shadow:0 1px 3px rgba(0,0,0,.12);border-radius:8px}
h1{font-size:28px;margin:0 0 4px;padding-right:160px}
.actions{position:absolute;top:40px;right:40px}
.meta{color:#555;margin:0 0 32px}
.parties{display:flex;gap:32px;margin-bottom:32px}
.parties section{flex:1;min-width:0;overflow-wrap:anywhere}
h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#666;margin:0 0 6px}
p{margin:0}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 0;border-bottom:1px solid #e3e3e3;vertical-align:top}
th:last-child,td:last-child{text-align:right;white-space:nowrap;padding-left:16px}
td:first-child{overflow-wrap:anywhere}
tbody th[scope=rowgroup]{font-weight:600;color:#444;padding:16px 0 8px;white-space:normal;text-align:left;overflow-wrap:anywhere}
tbody th span{font-weight:400;color:#666}
tfoot td{border-bottom:none;padding:4px 0}
tfoot tr.total td{font-weight:700;font-size:16px;border-top:2px solid #1a1a1a;padding-top:8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 24px;margin:0 0 24px}
dt{color:#666}dd{margin:0;overflow-wrap:anywhere}
.paid{font-size:24px;font-weight:700;margin:0 0 24px}
.note{margin-top:24px;padding:12px 16px;border:1px solid #e3e3e3;border-radius:6px;background:#fafafa}
.print{margin-top:32px;color:#666;font-size:13px}
button{font:inherit;font-weight:600;color:#fff;background:#1f5fbf;border:0;border-radius:6px;padding:8px 16px;cursor:pointer;min-height:40px}
button:focus-visible{outline:3px solid #8ab4f8;outline-offset:2px}
@media (max-width:600px){main{margin:0;padding:20px;border-radius:0;box-shadow:none}h1{padding-right:0}.meta{margin-bottom:16px}.actions{position:static;margin-bottom:24px}.parties{flex-direction:column;gap:16px}}
@media print{body{background:#fff}main{margin:0;max-width:none;box-shadow:none;padding:0;border-radius:0}.print,.actions{display:none}tr,.note{break-inside:avoid}}
`;

/**
 * The page around a document: its title and heading, the meta line, the "Download PDF" button
 * (prints to PDF; top right on a wide screen, under the meta line on a phone), the body and the hint.
 */
function page(t: TFunction, title: string, heading: string, meta: string, body: string): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style><script src="${PRINT_SCRIPT_PATH}" defer></script></head>
<body><main>
<h1>${e(heading)}</h1>
<p class="meta">${e(meta)}</p>
<div class="actions"><button type="button" data-print>${e(t('invoice.downloadPdf'))}</button></div>
${body}
<p class="print">${e(t('invoice.printHint'))}</p>
</main></body></html>`;
}

const party = (lines: (string | null | undefined)[]) =>
  lines
    .filter((l): l is string => Boolean(l))
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('');

/** "Server: Production · Service period: Mar 4, 2026 – Apr 4, 2026" above the lines it covers (lines of one server and period in a row share one). */
function groupHeading(line: InvoiceLine, t: TFunction): string {
  const parts = [
    line.server ? t('invoice.server', { name: line.server }) : null,
    line.period ? t('invoice.servicePeriod', { from: shortDate(line.period.from), to: shortDate(line.period.to) }) : null,
  ].filter((p): p is string => Boolean(p));
  return parts.length ? `<tr><th colspan="2" scope="rowgroup">${parts.map((p) => escapeHtml(p)).join(' <span>·</span> ')}</th></tr>` : '';
}

const groupKey = (l: InvoiceLine) => JSON.stringify([l.server ?? null, l.period?.from ?? null, l.period?.to ?? null]);

/** The invoice as issued (frozen), as a printable page: no outside resource, only our print script. */
export function renderInvoiceHtml(doc: InvoiceDocument, t: TFunction): string {
  const e = escapeHtml;
  const money = (amount: string) => e(formatMoney(amount, { cents: 'always' }));
  const seller = party([doc.seller.name, ...doc.seller.addressLines, doc.seller.taxId ? t('invoice.taxId', { id: doc.seller.taxId }) : null]);
  const buyer = party([doc.buyer.name, ...(doc.buyer.addressLines ?? []), doc.buyer.country ? countryName(doc.buyer.country) : null, doc.buyer.taxId ? t('invoice.taxId', { id: doc.buyer.taxId }) : null, doc.buyer.email]);
  let previous: string | null = null;
  const rows = doc.lines
    .map((l) => {
      const key = groupKey(l);
      const heading = key === previous ? '' : groupHeading(l, t);
      previous = key;
      return `${heading}<tr><td>${e(l.name)}</td><td>${money(l.amount)}</td></tr>`;
    })
    .join('');
  const discount = decimalToCents(doc.discount) > 0 ? `<tr><td>${e(t('invoice.discount'))}</td><td>-${money(doc.discount)}</td></tr>` : '';
  const taxLabel = doc.reverseCharge ? t('invoice.reverseCharge') : doc.taxRate > 0 ? t('invoice.taxAt', { rate: doc.taxRate }) : t('invoice.taxNone');
  const note = doc.reverseCharge ? `<p class="note">${e(t('invoice.reverseChargeNote'))}</p>` : '';
  const status = t(`invoice.statuses.${doc.status}`, { defaultValue: t('invoice.statuses.completed') });
  return page(
    t,
    t('invoice.title', { number: doc.number }),
    t('invoice.heading'),
    `${t('invoice.numberAndDate', { number: doc.number, date: longDate(doc.issuedAt) })} · ${t('invoice.status', { status })}`,
    `<div class="parties"><section aria-label="${e(t('invoice.seller'))}"><h2>${e(t('invoice.seller'))}</h2>${seller}</section>
<section aria-label="${e(t('invoice.buyer'))}"><h2>${e(t('invoice.buyer'))}</h2>${buyer}</section></div>
<table><thead><tr><th>${e(t('invoice.description'))}</th><th>${e(t('invoice.amount', { currency: doc.currency }))}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td>${e(t('invoice.subtotal'))}</td><td>${money(doc.subtotal)}</td></tr>${discount}
<tr><td>${e(taxLabel)}</td><td>${money(doc.tax)}</td></tr>
<tr class="total"><td>${e(t('invoice.total'))}</td><td>${money(doc.total)}</td></tr></tfoot></table>${note}`,
  );
}

/** A quote as a printable page: parties, preparer, server, lines, tax of the buyer's country, total and validity. */
export function renderQuoteHtml(doc: QuoteDocument, state: QuoteState, t: TFunction): string {
  const e = escapeHtml;
  const money = (amount: string) => e(formatMoney(amount, { cents: 'always' }));
  const seller = party([doc.seller.name, ...doc.seller.addressLines, doc.seller.taxId ? t('invoice.taxId', { id: doc.seller.taxId }) : null]);
  const buyer = party([doc.buyer.name, ...(doc.buyer.addressLines ?? []), doc.buyer.country ? countryName(doc.buyer.country) : null, doc.buyer.taxId ? t('invoice.taxId', { id: doc.buyer.taxId }) : null]);
  const heading = `<tr><th colspan="2" scope="rowgroup">${e(t('quote.server', { name: doc.server.name, plan: doc.server.plan }))} <span>·</span> ${e(t(`quote.cycle.${doc.cycle}`))}</th></tr>`;
  const rows = doc.lines.map((l) => `<tr><td>${e(l.name)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const discount = decimalToCents(doc.discount) > 0 ? `<tr><td>${e(doc.discountCode ? t('quote.discountCode', { code: doc.discountCode }) : t('invoice.discount'))}</td><td>-${money(doc.discount)}</td></tr>` : '';
  const taxLabel = doc.reverseCharge
    ? t('invoice.reverseCharge')
    : doc.taxRate > 0 && doc.taxCountry
      ? t('quote.taxOf', { rate: doc.taxRate, country: countryName(doc.taxCountry) })
      : t('invoice.taxNone');
  const notes = [
    doc.reverseCharge ? t('invoice.reverseChargeNote') : null,
    !doc.taxCountry && !doc.reverseCharge ? t('quote.noTaxCountry') : null,
    doc.yearlySaving ? t('quote.yearlySaving', { amount: formatMoney(doc.yearlySaving, { cents: 'always' }) }) : null,
    t('quote.validity', { expires: longDate(doc.expiresAt) }),
  ].filter((n): n is string => Boolean(n));
  return page(
    t,
    t('quote.title', { number: doc.number }),
    t('quote.heading'),
    `${t('quote.numberAndDates', { number: doc.number, date: longDate(doc.issuedAt), expires: longDate(doc.expiresAt) })} · ${t('quote.state', { state: t(`quote.states.${state}`) })}`,
    `<div class="parties"><section aria-label="${e(t('invoice.seller'))}"><h2>${e(t('invoice.seller'))}</h2>${seller}</section>
<section aria-label="${e(t('quote.to'))}"><h2>${e(t('quote.to'))}</h2>${buyer}</section></div>
<p class="meta">${e(t('quote.preparedBy', { name: doc.preparedBy.name, email: doc.preparedBy.email }))}</p>
<table><thead><tr><th>${e(t('invoice.description'))}</th><th>${e(t('invoice.amount', { currency: doc.currency }))}</th></tr></thead>
<tbody>${heading}${rows}</tbody>
<tfoot><tr><td>${e(t('invoice.subtotal'))}</td><td>${money(doc.subtotal)}</td></tr>${discount}
<tr><td>${e(taxLabel)}</td><td>${money(doc.tax)}</td></tr>
<tr class="total"><td>${e(t('invoice.total'))}</td><td>${money(doc.total)}</td></tr></tfoot></table>${notes.map((n) => `<p class="note">${e(n)}</p>`).join('')}`,
  );
}

/** What a receipt says: one payment, the invoice it pays, how it was paid. */
export interface ReceiptFacts {
  invoice: InvoiceDocument;
  paidAt: string;
  card: CardSummary | null;
  /** The payment provider's id of the transaction, the reference a bank statement or support may ask for. */
  reference: string;
}

/** A payment's receipt as a printable page, like the invoice: date, method, amount paid and the invoice it pays. */
export function renderReceiptHtml({ invoice, paidAt, card, reference }: ReceiptFacts, t: TFunction): string {
  const e = escapeHtml;
  const method = card ? t('receipt.card', { brand: cardBrand(card.brand), last4: card.last4 }) : t('receipt.methodUnknown');
  const facts: [string, string][] = [
    [t('receipt.paidOn'), longDate(paidAt)],
    [t('receipt.method'), method],
    [t('receipt.forInvoice'), invoice.number],
    [t('receipt.reference'), reference],
  ];
  const seller = party([invoice.seller.name, ...invoice.seller.addressLines, invoice.seller.taxId ? t('invoice.taxId', { id: invoice.seller.taxId }) : null]);
  const buyer = party([invoice.buyer.name, invoice.buyer.email]);
  return page(
    t,
    t('receipt.title', { number: invoice.number }),
    t('receipt.heading'),
    t('receipt.subtitle', { number: invoice.number }),
    `<p class="paid">${e(t('receipt.amountPaid', { amount: formatMoney(invoice.total, { cents: 'always' }), currency: invoice.currency }))}</p>
<dl>${facts.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>
<div class="parties"><section aria-label="${e(t('receipt.paidTo'))}"><h2>${e(t('receipt.paidTo'))}</h2>${seller}</section>
<section aria-label="${e(t('receipt.receivedFrom'))}"><h2>${e(t('receipt.receivedFrom'))}</h2>${buyer}</section></div>`,
  );
}
