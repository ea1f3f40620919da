import dayjs from 'dayjs';
import type { Period } from '../dataProvider/dashboard';
import { resolveRange, type DateRangeValue } from '../../src/ui/date/dateRangeRules';

const DAY = 'YYYY-MM-DD';

/** The API's day range for a date-range picker value ('allTime' starts at `since`, the app's creation, when given). */
export function toPeriod(value: DateRangeValue, since?: number, now = Date.now()): Period {
  const [start, end] = resolveRange(value, now, since);
  return { from: dayjs(start).format(DAY), to: dayjs(end).format(DAY) };
}

/** Every day of a period, so a chart shows the days without data as zero. */
export function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let d = dayjs(period.from); !d.isAfter(dayjs(period.to), 'day') && days.length < 3700; d = d.add(1, 'day')) days.push(d.format(DAY));
  return days;
}

/** The last `n` days up to today, as a period. */
export function lastDays(n: number, now = Date.now()): Period {
  return { from: dayjs(now).subtract(n - 1, 'day').format(DAY), to: dayjs(now).format(DAY) };
}
