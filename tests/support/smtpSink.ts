import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './net';

export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives, for SMTP_URL in tests; `onMail`
 * also hands each mail on (the browser tests write them to a mailbox folder).
 */
export async function startSmtpSink(onMail?: (mail: SunkMail) => void): Promise<{ url: string; mails: SunkMail[]; waitFor(to: string, subjectPart: string): Promise<SunkMail>; close(): Promise<void> }> {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const sunk = { to: session.envelope.rcptTo.map((r) => r.address), subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '' };
          mails.push(sunk);
          onMail?.(sunk);
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, subjectPart) {
      for (let i = 0; i < 200; i += 1) {
        const mail = mails.find((m) => m.to.includes(to) && m.subject.includes(subjectPart));
        if (mail) return mail;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no mail "${subjectPart}" to ${to} at the SMTP sink`);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
