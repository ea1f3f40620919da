import type { TFunction } from 'i18next';
import type { ReportDto } from '../../domain/schemas';

/** ISO weekdays: 1 Monday to 7 Sunday, as the API takes them. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** When a report goes, in words: 'Mondays at 08:00 (Europe/Berlin)'. */
export function describeSchedule(t: TFunction, r: Pick<ReportDto, 'frequency' | 'hour' | 'minute' | 'timezone' | 'dayOfWeek' | 'dayOfMonth'>): string {
  const time = `${pad(r.hour)}:${pad(r.minute)}`;
  if (r.frequency === 'weekly') return t('analytics.reports.schedule.weekly', { day: t(`analytics.reports.weekdays.${r.dayOfWeek ?? 1}`), time, timezone: r.timezone });
  if (r.frequency === 'monthly') return t('analytics.reports.schedule.monthly', { day: r.dayOfMonth ?? 1, time, timezone: r.timezone });
  return t('analytics.reports.schedule.daily', { time, timezone: r.timezone });
}
