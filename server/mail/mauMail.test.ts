import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { mauMailFigures, renderMail } from './templates';

const { t } = createI18n('Beacon');
type Figures = Parameters<typeof mauMailFigures>[0];
// As the MAU sampling job sends them: the figures through mauMailFigures.
const mail = (kind: 'mauWarning' | 'mauRunOut', figures: Figures) => renderMail(t, kind, { name: 'Ada', link: 'https://beacon.example/#/x', more: 'https://beacon.example/#/y', server: 'Shop', expiry: mauMailFigures(figures) });

describe('the MAU alert mails', () => {
  it('write counts with thousands separators ("4,200", not "4200"), in the text and the HTML alike', () => {
    const warning = mail('mauWarning', { used: 4200, limit: 5000, share: 80, forecast: 5250, runOutDay: 0 });
    expect(warning.text).toContain('has counted 4,200 monthly active users, 84% of the 5,000 its plan includes; at this pace it will reach about 5,250 by the end of the month');
    expect(warning.html).toContain('4,200 monthly active users, 84% of the 5,000');
    expect(warning.text).not.toMatch(/\b(4200|5000|5250)\b/);
    expect(warning.subject).toBe('Your Beacon server has reached 80% of its monthly active users');

    const runOut = mail('mauRunOut', { used: 12500, limit: 25000, share: 0, forecast: 31000, runOutDay: 24 });
    expect(runOut.text).toContain('has counted 12,500 of the 25,000 monthly active users its plan includes, and is projected to reach about 31,000 this month: it would pass its tier around day 24');
  });

  it('past the tier, say the share used (106%), while the subject names the threshold passed', () => {
    const past = mail('mauWarning', { used: 5300, limit: 5000, share: 100, forecast: 5400, runOutDay: 0 });
    expect(past.subject).toBe('Your Beacon server has reached 100% of its monthly active users');
    expect(past.text).toContain('5,300 monthly active users, 106% of the 5,000');
  });

  it('small counts read as before', () => {
    expect(mail('mauWarning', { used: 400, limit: 500, share: 80, forecast: 480, runOutDay: 0 }).text).toContain('400 monthly active users, 80% of the 500');
  });
});
