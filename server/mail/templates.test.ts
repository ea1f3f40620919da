import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { renderMail, type MailKind } from './templates';

const KINDS: MailKind[] = ['verify', 'reset', 'unlock', 'magic', 'invite', 'deleteCompany', 'appReview'];

describe('mail subjects', () => {
  it('carry no user-chosen text, so nothing a mail client would show as a link', () => {
    const { t } = createI18n('Beacon');
    const hostile = 'Win a prize at http://evil.example';
    for (const kind of KINDS) {
      const { subject } = renderMail(t, kind, { name: hostile, link: 'https://beacon.example/x', expiry: { minutes: 10, hours: 1, days: 7 }, inviter: hostile, company: hostile });
      expect(subject, kind).not.toMatch(/evil|prize|:\/\/|\w\.\w/);
      expect(subject, kind).toContain('Beacon');
    }
  });
});
