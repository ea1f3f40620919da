import type { TFunction } from 'i18next';
import type { ReportFrequency } from '../../domain/constants';
import type { ReportPreview } from '../../domain/schemas';

/** What a report mail shows: per app, the period's sessions and, when asked, its events. */
export interface ReportData {
  title: string;
  frequency: ReportFrequency;
  period: { from: string; to: string };
  apps: {
    name: string;
    analytics: { sessions: number; newUsers: number; duration: number } | null;
    events: { total: number; top: { key: string; name: string | null; count: number; sum: number }[] } | null;
  }[];
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const number = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);
/** Session time as Countly shows it: hours and minutes, or minutes and seconds. */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
}

/** The report mail, text and HTML, every string from i18n (`mail.report.*`). */
export function renderReportMail(t: TFunction, data: ReportData, link: string): ReportPreview {
  const period = data.period.from === data.period.to ? data.period.from : t('mail.report.period', { from: data.period.from, to: data.period.to });
  const intro = t('mail.report.intro', { frequency: t(`mail.report.frequencies.${data.frequency}`), period });
  const rows = data.apps.map((app) => {
    const lines: [string, string][] = [];
    if (app.analytics) {
      lines.push([t('mail.report.sessions'), number(app.analytics.sessions)], [t('mail.report.newUsers'), number(app.analytics.newUsers)], [t('mail.report.duration'), duration(app.analytics.duration)]);
    }
    if (app.events) lines.push([t('mail.report.events'), number(app.events.total)]);
    const top = app.events?.top.map((e) => `${e.name ?? e.key}: ${number(e.count)}${e.sum ? ` (${t('mail.report.sum')} ${number(e.sum)})` : ''}`) ?? [];
    return { name: app.name, lines, top };
  });
  const text = [
    intro,
    '',
    ...rows.flatMap((r) => [r.name, ...r.lines.map(([k, v]) => `  ${k}: ${v}`), ...(r.top.length ? [`  ${t('mail.report.topEvents')}:`, ...r.top.map((x) => `    ${x}`)] : []), '']),
    `${t('mail.report.action')}: ${link}`,
    '',
    t('mail.report.footer'),
  ].join('\n');
  const cell = 'padding:4px 12px 4px 0';
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(data.title)}</h1>
<p>${escapeHtml(intro)}</p>
${rows
  .map(
    (r) => `<h2 style="font-size:16px;margin-bottom:4px">${escapeHtml(r.name)}</h2>
<table style="border-collapse:collapse">${r.lines.map(([k, v]) => `<tr><td style="${cell};color:#6b7280">${escapeHtml(k)}</td><td style="${cell};font-weight:600">${escapeHtml(v)}</td></tr>`).join('')}</table>
${r.top.length ? `<p style="margin-bottom:0;color:#6b7280">${escapeHtml(t('mail.report.topEvents'))}</p><ol style="margin-top:4px">${r.top.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ol>` : ''}`,
  )
  .join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1a56db;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(t('mail.report.action'))}</a></p>
<p style="color:#6b7280;font-size:13px">${escapeHtml(t('mail.report.footer'))}</p>
</body></html>`;
  // No customer-written text in the subject (the title is in the body): a report must not carry a message of its own to inboxes.
  return { subject: t('mail.report.subject', { frequency: t(`mail.report.frequencies.${data.frequency}`), period }), text, html };
}
