import { desc } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export { DEV_MAILBOX_PATH } from '../../src/domain/constants';
/** The newest mails the page shows. */
const SHOWN = 50;

/**
 * Without SMTP_URL the outbox table is the only delivery. Outside production (a demo, development,
 * tests) a person still has to read it to get past sign-up, so the product serves it as a page;
 * production never does (it sends mail, and the outbox holds credentials).
 */
export const devMailboxEnabled = (config: Pick<Config, 'mode' | 'SMTP_URL'>): boolean => config.mode !== 'production' && !config.SMTP_URL;

/** Only this machine reads the mailbox: its links sign in, so a demo reachable from elsewhere keeps them to itself. */
export function isLoopback(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A mail's text, escaped, with each http(s) address a link that opens in the same tab. */
export function linkify(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    const url = match[0];
    out += escapeHtml(text.slice(at, match.index)) + `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    at = match.index + url.length;
  }
  return out + escapeHtml(text.slice(at));
}

type Mail = { to: string; subject: string; text: string; createdAt: Date };

function render(t: TFunction, product: string, mails: Mail[]): string {
  const items = mails
    .map(
      (m) => `<article>
<h2>${escapeHtml(m.subject)}</h2>
<p class="meta">${escapeHtml(t('devMailbox.to', { to: m.to }))} · <time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toUTCString())}</time></p>
<pre>${linkify(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('devMailbox.title', { product }))}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:1.5rem;color:#1b1f24}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:0}
.intro{color:#57606a;margin:0 0 1.5rem}.meta{color:#57606a;font-size:.875rem;margin:.25rem 0 .75rem}
article{border:1px solid #d0d7de;border-radius:8px;padding:1rem;margin:0 0 1rem}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}a{color:#0969da}
</style></head>
<body><main>
<h1>${escapeHtml(t('devMailbox.title', { product }))}</h1>
<p class="intro">${escapeHtml(t('devMailbox.intro'))}</p>
${items || `<p>${escapeHtml(t('devMailbox.empty'))}</p>`}
</main></body></html>`;
}

/** The development mailbox: the outbox, newest first, each mail's text with its links. */
export function createDevMailbox({ db, config, t }: { db: Db; config: Config; t: TFunction }) {
  return {
    enabled: devMailboxEnabled(config),
    async page(): Promise<string> {
      const mails = await db
        .select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text, createdAt: mailOutbox.createdAt })
        .from(mailOutbox)
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
        .limit(SHOWN);
      return render(t, config.PRODUCT_NAME, mails);
    },
  };
}

export type DevMailbox = ReturnType<typeof createDevMailbox>;
