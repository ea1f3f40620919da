import type { ReportFrequency } from './constants';
import { dayIn } from './rules';

/** When a report is sent: its frequency, a time of day in a time zone, and the day for weekly and monthly ones. */
export interface ReportSchedule {
  frequency: ReportFrequency;
  hour: number;
  minute: number;
  timezone: string;
  /** 1 (Monday) to 7 (Sunday), weekly reports. */
  dayOfWeek: number | null;
  /** 1 to 28, monthly reports. */
  dayOfMonth: number | null;
}

const DAY_MS = 86_400_000;

/** The wall-clock time of an instant in a time zone, read as if it were UTC. */
function wallClock(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** The instant a wall-clock time of a day ('YYYY-MM-DD') has in a time zone (a time skipped by a DST change lands an hour on). */
export function zonedInstant(day: string, hour: number, minute: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wanted = Date.UTC(y, m - 1, d, hour, minute);
  let guess = wanted;
  // Twice: the offset at the first guess may differ from the offset at the answer around a DST change.
  for (let i = 0; i < 2; i += 1) guess = wanted - (wallClock(timeZone, new Date(guess)) - guess);
  return new Date(guess);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const isoWeekday = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The first time the report is due strictly after `after`, in the report's time zone. */
export function nextRunAt(schedule: ReportSchedule, after: Date): Date {
  const start = dayIn(schedule.timezone, after);
  // A monthly report is due within 31 days, a weekly one within 7: 62 days always finds one.
  for (let i = 0; i < 62; i += 1) {
    const day = addDays(start, i);
    if (schedule.frequency === 'weekly' && isoWeekday(day) !== schedule.dayOfWeek) continue;
    if (schedule.frequency === 'monthly' && Number(day.slice(8, 10)) !== schedule.dayOfMonth) continue;
    const at = zonedInstant(day, schedule.hour, schedule.minute, schedule.timezone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no due time within 62 days');
}

/**
 * The days a report sent at `at` covers, in the report's time zone, ending the day before it is
 * sent: yesterday (daily), the 7 days before (weekly), the previous calendar month (monthly).
 */
export function reportPeriod(frequency: ReportFrequency, timeZone: string, at: Date): { from: string; to: string } {
  const today = dayIn(timeZone, at);
  if (frequency === 'monthly') {
    const [y, m] = today.split('-').map(Number) as [number, number];
    const first = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
    return { from: first, to: addDays(`${today.slice(0, 8)}01`, -1) };
  }
  return { from: addDays(today, frequency === 'weekly' ? -7 : -1), to: addDays(today, -1) };
}
