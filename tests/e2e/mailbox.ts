import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  link: string;
}

function all(): ReceivedMail[] {
  const dir = process.env.MAILBOX_DIR;
  if (!dir) throw new Error('MAILBOX_DIR is not set: globalSetup starts the SMTP sink');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Omit<ReceivedMail, 'link'>)
    .map((m) => ({ ...m, link: /https?:\/\/\S+/.exec(m.text)?.[0] ?? '' }));
}

/** Waits for the SMTP sink to receive the next mail to `to` whose subject contains `subjectPart`. */
export async function waitForMail(to: string, subjectPart: string, skip = 0): Promise<ReceivedMail> {
  for (let i = 0; i < 100; i += 1) {
    const found = all().filter((m) => m.to.includes(to) && m.subject.includes(subjectPart));
    if (found.length > skip) return found[found.length - 1] as ReceivedMail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail "${subjectPart}" to ${to}`);
}

export function countMails(to: string, subjectPart: string): number {
  return all().filter((m) => m.to.includes(to) && m.subject.includes(subjectPart)).length;
}
