import type { TFunction } from 'i18next';
import { mauSharePercent } from '../../src/domain/usage/mauRule';

export type MailKind = 'verify' | 'reset' | 'unlock' | 'magic' | 'invite' | 'deleteCompany' | 'accountExists' | 'appReview' | 'mauWarning' | 'mauRunOut' | 'passkeyAdded' | 'passkeyRemoved' | 'passkeyUsed' | 'paymentReminder' | 'domainRecordsMissing' | 'domainStopped' | 'quoteSent' | 'quoteApproved' | 'quoteDeclined' | 'quoteServerRunning';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface MailParams {
  name: string;
  /** The action link, or, for code mails, the code to type. */
  link: string;
  /** Interpolation values: expiry figures and names the template mentions (`count` a number, for plurals). */
  expiry: Record<string, number | string>;
  inviter?: string;
  company?: string;
  /** A server's name (user text: bodies only, never a subject). */
  server?: string;
  /** A passkey's name (user text: bodies only). */
  passkey?: string;
  /** A second link, labelled by `mail.<kind>.more` (the MAU mails: the devices behind the count). */
  more?: string;
}

const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * The figures of a MAU alert mail as people read them: counts with thousands separators ("4,200"),
 * `share` the alert's threshold (80 or 100, the subject) and `percent` the share of the tier used,
 * past 100 too ("106%").
 */
export function mauMailFigures(f: { used: number; limit: number; share: number; forecast: number; runOutDay: number }): Record<string, number | string> {
  return { used: counts.format(f.used), limit: counts.format(f.limit), forecast: counts.format(f.forecast), share: f.share, percent: mauSharePercent(f.used, f.limit), runOutDay: f.runOutDay };
}

const CODE_MAILS = new Set<MailKind>(['deleteCompany']);
// Notices of a change already made: 'ignore this mail' would be the wrong advice.
const NOTICE_MAILS = new Set<MailKind>(['passkeyAdded', 'passkeyRemoved', 'passkeyUsed', 'domainRecordsMissing', 'domainStopped', 'quoteApproved', 'quoteDeclined', 'quoteServerRunning']);

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain-text and HTML bodies of one account mail, every string from i18n. */
export function renderMail(t: TFunction, kind: MailKind, params: MailParams): MailContent {
  const vars = { ...params.expiry, inviter: params.inviter ?? '', company: params.company ?? '', server: params.server ?? '', passkey: params.passkey ?? '' };
  const lines = {
    greeting: t('mail.greeting', { name: params.name }),
    body: t(`mail.${kind}.body`, vars),
    action: t(`mail.${kind}.action`, vars),
    expiry: t(`mail.${kind}.expiry`, vars),
    ignore: NOTICE_MAILS.has(kind) ? '' : t('mail.ignore'),
    fallback: t('mail.linkFallback'),
    signature: t('mail.signature'),
  };
  const isCode = CODE_MAILS.has(kind);
  const moreLabel = params.more ? t(`mail.${kind}.more`, vars) : '';
  const moreText = params.more ? [`${moreLabel}: ${params.more}`, ''] : [];
  const text = [lines.greeting, '', lines.body, '', `${lines.action}: ${params.link}`, '', ...moreText, lines.expiry, lines.ignore, '', lines.signature].join('\n');
  const link = escapeHtml(params.link);
  const more = params.more ? `<p><a href="${escapeHtml(params.more)}">${escapeHtml(moreLabel)}</a></p>\n` : '';
  const action = isCode
    ? `<p>${escapeHtml(lines.action)}</p><p style="font-size:28px;font-weight:700;letter-spacing:8px">${link}</p>`
    : `<p><a href="${link}" style="display:inline-block;background:#1a56db;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(lines.action)}</a></p>`;
  const fallback = isCode ? '' : `<p style="color:#6b7280;font-size:13px">${escapeHtml(lines.fallback)}<br><a href="${link}">${link}</a></p>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(lines.greeting)}</p>
<p>${escapeHtml(lines.body).replace(/\n/g, '<br>')}</p>
${action}
${more}<p style="color:#6b7280">${escapeHtml(lines.expiry)} ${escapeHtml(lines.ignore)}</p>
${fallback}
<p>${escapeHtml(lines.signature)}</p>
</body></html>`;
  return { subject: t(`mail.${kind}.subject`, vars), text, html };
}
