import type { TFunction } from 'i18next';

export type MailKind = 'verify' | 'reset' | 'unlock' | 'magic';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain-text and HTML bodies of one account mail, every string from i18n. */
export function renderMail(t: TFunction, kind: MailKind, params: { name: string; link: string; expiry: Record<string, number> }): MailContent {
  const lines = {
    greeting: t('mail.greeting', { name: params.name }),
    body: t(`mail.${kind}.body`),
    action: t(`mail.${kind}.action`),
    expiry: t(`mail.${kind}.expiry`, params.expiry),
    ignore: t('mail.ignore'),
    fallback: t('mail.linkFallback'),
    signature: t('mail.signature'),
  };
  const text = [lines.greeting, '', lines.body, '', `${lines.action}: ${params.link}`, '', lines.expiry, lines.ignore, '', lines.signature].join('\n');
  const link = escapeHtml(params.link);
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(lines.greeting)}</p>
<p>${escapeHtml(lines.body)}</p>
<p><a href="${link}" style="display:inline-block;background:#1a56db;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(lines.action)}</a></p>
<p style="color:#6b7280">${escapeHtml(lines.expiry)} ${escapeHtml(lines.ignore)}</p>
<p style="color:#6b7280;font-size:13px">${escapeHtml(lines.fallback)}<br><a href="${link}">${link}</a></p>
<p>${escapeHtml(lines.signature)}</p>
</body></html>`;
  return { subject: t(`mail.${kind}.subject`), text, html };
}
