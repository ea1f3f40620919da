import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
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
 * SMTP through nodemailer when `SMTP_URL` is set. Without it each mail is kept in the outbox table
 * and its link printed to the log, so sign-up, reset and unlock work out of the box.
 */
export function createMailer(options: { smtpUrl?: string; from: string }, db: Db, log: FastifyBaseLogger): Mailer {
  const transport: Transporter | null = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  // Sends run after the answer (fire and forget); shutdown must not close the database under them.
  const pending = new Set<Promise<void>>();
  async function deliver(to: string, content: MailContent, link: string): Promise<void> {
    try {
      if (transport) {
        await transport.sendMail({ from: options.from, to, subject: content.subject, text: content.text, html: content.html });
        log.info({ to, subject: content.subject }, 'mail sent');
      } else {
        await db.insert(mailOutbox).values({ to, ...content });
        log.info({ to, subject: content.subject, link }, `mail kept in the outbox (no SMTP_URL): ${link}`);
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
