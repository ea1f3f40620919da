/**
 * The date-range rules of SPEC §5 and the range-picker values of SPEC §3, free of React so each
 * edge is unit-tested. Times are epoch milliseconds in the user's time zone.
 */
import dayjs, { type Dayjs } from 'dayjs';

export const SHORTCUT_KEYS = ['yesterday', 'today', '7days', '30days', '60days', 'thisMonth', 'thisYear', 'allTime'] as const;
export type ShortcutKey = (typeof SHORTCUT_KEYS)[number];

export const IN_THE_LAST_UNITS = ['days', 'weeks', 'months'] as const;
export type InTheLastUnit = (typeof IN_THE_LAST_UNITS)[number];
/** 'In the last' as a number-plus-unit string: `30days`, `2weeks`, `6months`. */
export type InTheLastValue = `${number}${InTheLastUnit}`;

/** The range-picker values of SPEC §3. */
export type DateRangeValue = readonly [number, number] | ShortcutKey | { since: number } | { on: number } | InTheLastValue;

export const RANGE_MODES = ['inBetween', 'since', 'onm', 'inTheLast'] as const;
export type RangeMode = (typeof RANGE_MODES)[number];

export const PICKER_TYPES = ['date', 'daterange', 'month', 'monthrange'] as const;
export type PickerType = (typeof PICKER_TYPES)[number];

/** Typed dates are valid from this day on. */
export const EARLIEST_DATE = '2010-01-01';
/** How far ahead a future picker reaches. */
export const FUTURE_YEARS = 10;

export interface DateBounds {
  min: number;
  max: number;
}

/** From 1 Jan 2010 to the end of today, or to the end of the day 10 years ahead for future pickers. */
export function dateBounds(now: number, allowFuture = false): DateBounds {
  const last = allowFuture ? dayjs(now).add(FUTURE_YEARS, 'year') : dayjs(now);
  return { min: dayjs(EARLIEST_DATE).startOf('day').valueOf(), max: last.endOf('day').valueOf() };
}

export type DateProblem = 'invalid' | 'beforeMin' | 'afterMax';

export function checkDate(value: Dayjs | number | null | undefined, bounds: DateBounds): DateProblem | null {
  if (value === null || value === undefined) return 'invalid';
  const d = dayjs(value);
  if (!d.isValid()) return 'invalid';
  if (d.valueOf() < bounds.min) return 'beforeMin';
  if (d.valueOf() > bounds.max) return 'afterMax';
  return null;
}

/** On blur a typed date stays only when valid; otherwise the field goes back to its last valid date. */
export function keepValidDate(draft: Dayjs | null, lastValid: Dayjs | null, bounds: DateBounds): Dayjs | null {
  return checkDate(draft, bounds) === null ? draft : lastValid;
}

/** 'In the last' offers days and weeks only to tables kept per day; months always. */
export function inTheLastUnits(dayLevel: boolean): InTheLastUnit[] {
  return dayLevel ? [...IN_THE_LAST_UNITS] : ['months'];
}

export function parseInTheLast(value: string): { count: number; unit: InTheLastUnit } | null {
  const match = /^([1-9]\d*)(days|weeks|months)$/.exec(value);
  if (!match) return null;
  return { count: Number(match[1]), unit: match[2] as InTheLastUnit };
}

export const isShortcutKey = (value: unknown): value is ShortcutKey => typeof value === 'string' && (SHORTCUT_KEYS as readonly string[]).includes(value);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** For values read back from storage or a URL. */
export function isDateRangeValue(value: unknown): value is DateRangeValue {
  if (Array.isArray(value)) return value.length === 2 && isTime(value[0]) && isTime(value[1]);
  if (typeof value === 'string') return isShortcutKey(value) || parseInTheLast(value) !== null;
  if (isRecord(value)) return Object.keys(value).length === 1 && (isTime(value.since) || isTime(value.on));
  return false;
}

/** Array.isArray does not narrow readonly tuples, hence this guard. */
export const isRangePair = (value: DateRangeValue): value is readonly [number, number] => Array.isArray(value);

export type ValueKind = 'shortcut' | RangeMode;

/** Shortcut keys win over the same 'in the last' string: `7days` is the shortcut. */
export function valueKind(value: DateRangeValue): ValueKind {
  if (isRangePair(value)) return 'inBetween';
  if (typeof value === 'string') return isShortcutKey(value) ? 'shortcut' : 'inTheLast';
  return 'since' in value ? 'since' : 'onm';
}

/** The last `count` units up to the end of today, today included. */
function lastUnits(count: number, unit: InTheLastUnit, today: Dayjs): [number, number] {
  const start = today.subtract(count, unit === 'days' ? 'day' : unit === 'weeks' ? 'week' : 'month').add(1, 'day');
  return [start.startOf('day').valueOf(), today.endOf('day').valueOf()];
}

/** The [start, end] that any picker value stands for, at `now`; 'allTime' starts at `earliest` when the page knows it. */
export function resolveRange(value: DateRangeValue, now: number, earliest?: number): [number, number] {
  const today = dayjs(now);
  const endOfToday = today.endOf('day').valueOf();
  if (isRangePair(value)) return [value[0], value[1]];
  if (typeof value === 'string') {
    switch (value) {
      case 'yesterday': {
        const y = today.subtract(1, 'day');
        return [y.startOf('day').valueOf(), y.endOf('day').valueOf()];
      }
      case 'today':
        return [today.startOf('day').valueOf(), endOfToday];
      case 'thisMonth':
        return [today.startOf('month').valueOf(), endOfToday];
      case 'thisYear':
        return [today.startOf('year').valueOf(), endOfToday];
      case 'allTime':
        return [dayjs(earliest ?? EARLIEST_DATE).startOf('day').valueOf(), endOfToday];
    }
    const last = parseInTheLast(value);
    return last ? lastUnits(last.count, last.unit, today) : [today.startOf('day').valueOf(), endOfToday];
  }
  if ('since' in value) return [dayjs(value.since).startOf('day').valueOf(), endOfToday];
  const on = dayjs(value.on);
  return [on.startOf('day').valueOf(), on.endOf('day').valueOf()];
}

/** Days a range covers, both ends included. */
export function rangeLengthDays(start: number, end: number): number {
  return dayjs(end).startOf('day').diff(dayjs(start).startOf('day'), 'day') + 1;
}

export type RangeCheck =
  | { ok: true; range: [number, number] }
  | { ok: false; reason: 'invalidStart' | 'invalidEnd' | 'startAfterEnd' }
  | { ok: false; reason: 'tooLong'; maxDays: number };

export interface RangeRules {
  bounds: DateBounds;
  /** The optional maximum range length, in days. */
  maxDays?: number;
  /** The first moment there can be data (an app's creation): 'All time' starts there, and is never too long. */
  earliest?: number;
}

/** A range is accepted only with valid ends, start not after end, and within the length limit. */
export function checkRange(start: number | null, end: number | null, rules: RangeRules): RangeCheck {
  if (checkDate(start, rules.bounds) !== null || start === null) return { ok: false, reason: 'invalidStart' };
  if (checkDate(end, rules.bounds) !== null || end === null) return { ok: false, reason: 'invalidEnd' };
  if (start > end) return { ok: false, reason: 'startAfterEnd' };
  if (rules.maxDays !== undefined && rangeLengthDays(start, end) > rules.maxDays) return { ok: false, reason: 'tooLong', maxDays: rules.maxDays };
  return { ok: true, range: [start, end] };
}

/** Checks what a value resolves to at `now`; every way of choosing a range passes here. */
export function checkRangeValue(value: DateRangeValue, now: number, rules: RangeRules): RangeCheck {
  const [start, end] = resolveRange(value, now, rules.earliest);
  // All of the data is what 'All time' asks for, however long that is, once the page says where it starts.
  const limits = value === 'allTime' && rules.earliest !== undefined ? { ...rules, maxDays: undefined } : rules;
  return checkRange(start, end, limits);
}

/** What the custom-range tab holds while the user edits it. */
export interface RangeDraft {
  start: number | null;
  end: number | null;
  count: number | null;
  unit: InTheLastUnit;
}

/**
 * The value the custom tab stands for, or null while incomplete. Day pickers cover whole days,
 * month pickers whole months, cut at the last valid moment so the current month stays valid.
 */
export function draftToValue(type: PickerType, mode: RangeMode, draft: RangeDraft, bounds: DateBounds): DateRangeValue | null {
  const { start, end } = draft;
  const monthEnd = (t: number) => Math.min(dayjs(t).endOf('month').valueOf(), bounds.max);
  switch (type) {
    case 'date':
      return start === null ? null : { on: dayjs(start).startOf('day').valueOf() };
    case 'month':
      return start === null ? null : [dayjs(start).startOf('month').valueOf(), monthEnd(start)];
    case 'monthrange':
      return start === null || end === null ? null : [dayjs(start).startOf('month').valueOf(), monthEnd(end)];
    case 'daterange':
      break;
  }
  switch (mode) {
    case 'inBetween':
      return start === null || end === null ? null : [dayjs(start).startOf('day').valueOf(), dayjs(end).endOf('day').valueOf()];
    case 'since':
      return start === null ? null : { since: dayjs(start).startOf('day').valueOf() };
    case 'onm':
      return start === null ? null : { on: dayjs(start).startOf('day').valueOf() };
    case 'inTheLast':
      return draft.count !== null && Number.isInteger(draft.count) && draft.count >= 1 ? `${draft.count}${draft.unit}` : null;
  }
}
