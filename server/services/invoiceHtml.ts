import type { TFunction } from 'i18next';
import { decimalToCents, formatMoney } from '../../src/domain/money';
import type { InvoiceDocument } from '../../src/domain/payments/invoice';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Company names and lines are customer text: nothing of theirs may become markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

// Printable on A4 and Letter; narrow screens stack the two parties.
const STYLE = `
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;margin:0;background:#f4f5f7}
main{max-width:760px;margin:32px auto;background:#fff;padding:40px;box-shadow:0 1px 3px rgba(0,0,0,.12);border-radius:8px}
h1{font-size:28px;margin:0 0 4px}
.meta{color:#555;margin:0 0 32px}
.parties{display:flex;gap:32px;margin-bottom:32px}
.parties section{flex:1;min-width:0;overflow-wrap:anywhere}
h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#666;margin:0 0 6px}
p{margin:0}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 0;border-bottom:1px solid #e3e3e3;vertical-align:top}
th:last-child,td:last-child{text-align:right;white-space:nowrap;padding-left:16px}
td:first-child{overflow-wrap:anywhere}
tfoot td{border-bottom:none;padding:4px 0}
tfoot tr.total td{font-weight:700;font-size:16px;border-top:2px solid #1a1a1a;padding-top:8px}
.print{margin-top:32px;color:#666;font-size:13px}
@media (max-width:600px){main{margin:0;padding:20px;border-radius:0;box-shadow:none}.parties{flex-direction:column;gap:16px}}
@media print{body{background:#fff}main{margin:0;max-width:none;box-shadow:none;padding:0}.print{display:none}}
`;

/** The invoice as issued (frozen), as a self-contained printable page: no script, no outside resource. */
export function renderInvoiceHtml(doc: InvoiceDocument, t: TFunction): string {
  const e = escapeHtml;
  const money = (amount: string) => e(formatMoney(amount, { cents: 'always' }));
  const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(doc.issuedAt));
  const party = (lines: (string | null)[]) => lines.filter((l): l is string => Boolean(l)).map((l) => `<p>${e(l)}</p>`).join('');
  const seller = party([doc.seller.name, ...doc.seller.addressLines, doc.seller.taxId ? t('invoice.taxId', { id: doc.seller.taxId }) : null]);
  const buyer = party([doc.buyer.name, doc.buyer.country ? countryName(doc.buyer.country) : null, doc.buyer.taxId ? t('invoice.taxId', { id: doc.buyer.taxId }) : null, doc.buyer.email]);
  const rows = doc.lines.map((l) => `<tr><td>${e(l.name)}</td><td>${money(l.amount)}</td></tr>`).join('');
  const discount = decimalToCents(doc.discount) > 0 ? `<tr><td>${e(t('invoice.discount'))}</td><td>-${money(doc.discount)}</td></tr>` : '';
  const taxLabel = doc.taxRate > 0 ? t('invoice.taxAt', { rate: doc.taxRate }) : t('invoice.taxNone');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(t('invoice.title', { number: doc.number }))}</title><style>${STYLE}</style></head>
<body><main>
<h1>${e(t('invoice.heading'))}</h1>
<p class="meta">${e(t('invoice.numberAndDate', { number: doc.number, date }))} · ${e(t('invoice.status', { status: t(`invoice.statuses.${doc.status}`, { defaultValue: t('invoice.statuses.completed') }) }))}</p>
<div class="parties"><section aria-label="${e(t('invoice.seller'))}"><h2>${e(t('invoice.seller'))}</h2>${seller}</section>
<section aria-label="${e(t('invoice.buyer'))}"><h2>${e(t('invoice.buyer'))}</h2>${buyer}</section></div>
<table><thead><tr><th>${e(t('invoice.description'))}</th><th>${e(t('invoice.amount', { currency: doc.currency }))}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td>${e(t('invoice.subtotal'))}</td><td>${money(doc.subtotal)}</td></tr>${discount}
<tr><td>${e(taxLabel)}</td><td>${money(doc.tax)}</td></tr>
<tr class="total"><td>${e(t('invoice.total'))}</td><td>${money(doc.total)}</td></tr></tfoot></table>
<p class="print">${e(t('invoice.printHint'))}</p>
</main></body></html>`;
}
