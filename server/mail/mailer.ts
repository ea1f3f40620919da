import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { MailContent } from './templates';

export interface Mailer {
  /** Sends a mail; never throws (a failed send is logged), so callers may fire and forget. */
  send(to: string, content: MailContent, link: string): Promise<void>;
  /** Resolves when every send started so far has finished; the app waits for it before closing the database. */
  idle(): Promise<void>;
  /** Runs mail work (issue a token, then send) after the answer, tracked like a send; never throws. */
  later(work: () => Promise<void>): void;
}

/**
 * SMTP through nodemailer when `SMTP_URL` is set; then nothing of the mail is stored, so no usable
 * link outlives its delivery. Without SMTP the outbox table is the delivery (development and
 * tests): each mail is kept there whole, and in development (`logLinks`) its link is also printed
 * to the log. Elsewhere links never reach the log: they are credentials.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logLinks?: boolean }, db: Db, log: FastifyBaseLogger): Mailer {
  // nodemailer loads with the first mail, not at the server's start.
  const { smtpUrl } = options;
  let transport: Promise<Transporter> | null = null;
  const smtp = smtpUrl ? () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl))) : null;
  // Sends run after the answer (fire and forget); shutdown must not close the database under them.
  const pending = new Set<Promise<void>>();
  async function deliver(to: string, content: MailContent, link: string): Promise<void> {
    try {
      if (smtp) {
        await (await smtp()).sendMail({ from: options.from, to, subject: content.subject, text: content.text, html: content.html });
        log.info({ to, subject: content.subject }, 'mail sent');
      } else {
        await db.insert(mailOutbox).values({ to, ...content });
        if (options.logLinks) log.info({ to, subject: content.subject }, `mail kept in the outbox (no SMTP_URL): ${link}`);
        else log.info({ to, subject: content.subject }, 'mail kept in the outbox (no SMTP_URL)');
      }
    } catch (err) {
      log.error({ err, to, subject: content.subject }, 'mail could not be sent');
    }
  }
  const track = (work: Promise<void>) => {
    const tracked = work.catch(() => undefined).finally(() => pending.delete(tracked));
    pending.add(tracked);
    return tracked;
  };
  return {
    send: (to, content, link) => track(deliver(to, content, link)),
    later(work) {
      void track(work());
    },
    async idle() {
      await Promise.all(pending);
    },
  };
}
