import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { MailContent } from './templates';

export interface Mailer {
  /** Sends a mail; never throws (a failed send is logged), so callers may fire and forget. */
  send(to: string, content: MailContent, link: string): Promise<void>;
}

/**
 * SMTP through nodemailer when `SMTP_URL` is set; then nothing of the mail is stored, so no usable
 * link outlives its delivery. Without SMTP the outbox table is the delivery (development and
 * tests): each mail is kept there whole, and in development (`logLinks`) its link is also printed
 * to the log. Elsewhere links never reach the log: they are credentials.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logLinks?: boolean }, db: Db, log: FastifyBaseLogger): Mailer {
  const transport: Transporter | null = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    async send(to, content, link) {
      try {
        if (transport) {
          await transport.sendMail({ from: options.from, to, subject: content.subject, text: content.text, html: content.html });
          log.info({ to, subject: content.subject }, 'mail sent');
        } else {
          await db.insert(mailOutbox).values({ to, ...content });
          if (options.logLinks) log.info({ to, subject: content.subject }, `mail kept in the outbox (no SMTP_URL): ${link}`);
          else log.info({ to, subject: content.subject }, 'mail kept in the outbox (no SMTP_URL)');
        }
      } catch (err) {
        log.error({ err, to, subject: content.subject }, 'mail could not be sent');
      }
    },
  };
}
