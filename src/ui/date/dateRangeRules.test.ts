import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  checkDate,
  checkRange,
  checkRangeValue,
  dateBounds,
  draftToValue,
  inTheLastUnits,
  isDateRangeValue,
  keepValidDate,
  parseInTheLast,
  rangeLengthDays,
  resolveRange,
  SHORTCUT_KEYS,
  valueKind,
  type DateRangeValue,
} from './dateRangeRules';

// Local times, so the rules hold in any time zone the tests run in.
const at = (iso: string) => dayjs(iso).valueOf();
const NOW = at('2026-11-21T15:30:00');
const bounds = dateBounds(NOW);
const future = dateBounds(NOW, true);

describe('date validity', () => {
  it('starts on 1 Jan 2010: 31 Dec 2009 is too early', () => {
    expect(checkDate(at('2009-12-31T00:00:00'), bounds)).toBe('beforeMin');
    expect(checkDate(at('2009-12-31T23:59:59.999'), bounds)).toBe('beforeMin');
    expect(checkDate(at('2010-01-01T00:00:00'), bounds)).toBeNull();
  });

  it('ends with today: 23:59 today is fine, tomorrow is not', () => {
    expect(checkDate(at('2026-11-21T23:59:00'), bounds)).toBeNull();
    expect(checkDate(at('2026-11-21T23:59:59.999'), bounds)).toBeNull();
    expect(checkDate(at('2026-11-22T00:00:00'), bounds)).toBe('afterMax');
  });

  it('lets future pickers reach 10 years ahead, to the end of that day', () => {
    expect(checkDate(at('2026-11-22T00:00:00'), future)).toBeNull();
    expect(checkDate(at('2036-11-21T23:59:59.999'), future)).toBeNull();
    expect(checkDate(at('2036-11-22T00:00:00'), future)).toBe('afterMax');
    expect(checkDate(at('2009-12-31T12:00:00'), future)).toBe('beforeMin');
  });

  it('rejects missing and unparseable dates', () => {
    expect(checkDate(null, bounds)).toBe('invalid');
    expect(checkDate(undefined, bounds)).toBe('invalid');
    expect(checkDate(dayjs('not a date'), bounds)).toBe('invalid');
    expect(checkDate(Number.NaN, bounds)).toBe('invalid');
  });

  it('keeps a typed date on blur only when valid, otherwise reverts to the last valid one', () => {
    const lastValid = dayjs('2026-03-01');
    expect(keepValidDate(dayjs('2026-04-02'), lastValid, bounds)?.format('YYYY-MM-DD')).toBe('2026-04-02');
    expect(keepValidDate(dayjs('2009-12-31'), lastValid, bounds)).toBe(lastValid);
    expect(keepValidDate(dayjs('2026-11-22'), lastValid, bounds)).toBe(lastValid);
    expect(keepValidDate(dayjs('garbage'), lastValid, bounds)).toBe(lastValid);
    expect(keepValidDate(null, lastValid, bounds)).toBe(lastValid);
  });
});

describe('range acceptance', () => {
  const rules = { bounds };

  it('accepts a range only when start is not after end', () => {
    expect(checkRange(at('2026-03-10'), at('2026-03-01'), rules)).toEqual({ ok: false, reason: 'startAfterEnd' });
    expect(checkRange(at('2026-03-01'), at('2026-03-01T23:59:59'), rules)).toEqual({ ok: true, range: [at('2026-03-01'), at('2026-03-01T23:59:59')] });
    expect(checkRange(at('2026-03-01'), at('2026-03-01'), rules).ok).toBe(true);
  });

  it('names the invalid end', () => {
    expect(checkRange(at('2009-12-31'), at('2026-01-01'), rules)).toEqual({ ok: false, reason: 'invalidStart' });
    expect(checkRange(null, at('2026-01-01'), rules)).toEqual({ ok: false, reason: 'invalidStart' });
    expect(checkRange(at('2026-01-01'), at('2026-11-22T00:00:00'), rules)).toEqual({ ok: false, reason: 'invalidEnd' });
    expect(checkRange(at('2026-01-01'), at('2026-11-21T23:59:00'), rules).ok).toBe(true);
  });

  it('refuses ranges longer than the maximum, telling the allowed length', () => {
    const limited = { bounds, maxDays: 30 };
    expect(rangeLengthDays(at('2026-03-01'), at('2026-03-30T23:59:59'))).toBe(30);
    expect(checkRange(at('2026-03-01'), at('2026-03-30T23:59:59'), limited).ok).toBe(true);
    expect(checkRange(at('2026-03-01'), at('2026-03-31'), limited)).toEqual({ ok: false, reason: 'tooLong', maxDays: 30 });
    expect(checkRangeValue('30days', NOW, limited).ok).toBe(true);
    expect(checkRangeValue('60days', NOW, limited)).toEqual({ ok: false, reason: 'tooLong', maxDays: 30 });
    expect(checkRangeValue('allTime', NOW, limited)).toEqual({ ok: false, reason: 'tooLong', maxDays: 30 });
  });

  it("takes 'All time' from where the page's data starts, however long that is", () => {
    const earliest = at('2025-03-02T09:10:00');
    const check = checkRangeValue('allTime', NOW, { bounds, maxDays: 30, earliest });
    expect(check).toEqual({ ok: true, range: [at('2025-03-02'), dayjs(NOW).endOf('day').valueOf()] });
    // Only 'All time': a chosen range is still held to the limit.
    expect(checkRangeValue('60days', NOW, { bounds, maxDays: 30, earliest })).toEqual({ ok: false, reason: 'tooLong', maxDays: 30 });
  });

  it('accepts every shortcut without a limit', () => {
    for (const key of SHORTCUT_KEYS) expect(checkRangeValue(key, NOW, rules).ok).toBe(true);
  });
});

describe('picker values', () => {
  const day = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss.SSS');
  const resolved = (value: DateRangeValue) => resolveRange(value, NOW).map(day);

  it('resolves each shortcut at now', () => {
    expect(resolved('yesterday')).toEqual(['2026-11-20 00:00:00.000', '2026-11-20 23:59:59.999']);
    expect(resolved('today')).toEqual(['2026-11-21 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('7days')).toEqual(['2026-11-15 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('30days')).toEqual(['2026-10-23 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('60days')).toEqual(['2026-09-23 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('thisMonth')).toEqual(['2026-11-01 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('thisYear')).toEqual(['2026-01-01 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('allTime')).toEqual(['2010-01-01 00:00:00.000', '2026-11-21 23:59:59.999']);
  });

  it('resolves pairs, since, on and in-the-last strings', () => {
    expect(resolveRange([1, 2], NOW)).toEqual([1, 2]);
    expect(resolved({ since: at('2026-11-01T13:00') })).toEqual(['2026-11-01 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved({ on: at('2026-02-03T13:00') })).toEqual(['2026-02-03 00:00:00.000', '2026-02-03 23:59:59.999']);
    expect(resolved('2weeks')).toEqual(['2026-11-08 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(resolved('3months')).toEqual(['2026-08-22 00:00:00.000', '2026-11-21 23:59:59.999']);
    expect(rangeLengthDays(...resolveRange('45days', NOW))).toBe(45);
  });

  it('tells shortcut keys from number-plus-unit strings', () => {
    expect(valueKind('7days')).toBe('shortcut');
    expect(valueKind('8days')).toBe('inTheLast');
    expect(valueKind([1, 2])).toBe('inBetween');
    expect(valueKind({ since: 1 })).toBe('since');
    expect(valueKind({ on: 1 })).toBe('onm');
    expect(parseInTheLast('12weeks')).toEqual({ count: 12, unit: 'weeks' });
    expect(parseInTheLast('0days')).toBeNull();
    expect(parseInTheLast('3years')).toBeNull();
    expect(parseInTheLast('1.5days')).toBeNull();
  });

  it('recognises stored values of each form and nothing else', () => {
    for (const good of [[1, 2], 'today', '30days', '5months', { since: 1 }, { on: 2 }]) expect(isDateRangeValue(good)).toBe(true);
    for (const bad of [[1], [1, 'x'], 'soon', '5years', { since: 'x' }, { on: 1, since: 2 }, null, 42]) expect(isDateRangeValue(bad)).toBe(false);
  });

  it("offers days and weeks in 'in the last' only to day-level tables, months always", () => {
    expect(inTheLastUnits(true)).toEqual(['days', 'weeks', 'months']);
    expect(inTheLastUnits(false)).toEqual(['months']);
  });

  it('builds the value of the custom tab for each picker type and mode', () => {
    const draft = { start: at('2026-03-05T10:00'), end: at('2026-11-10T08:00'), count: 3, unit: 'weeks' as const };
    const fmt = (v: DateRangeValue | null) => (Array.isArray(v) ? v.map(day) : v);
    expect(fmt(draftToValue('daterange', 'inBetween', draft, bounds))).toEqual(['2026-03-05 00:00:00.000', '2026-11-10 23:59:59.999']);
    expect(draftToValue('daterange', 'since', draft, bounds)).toEqual({ since: at('2026-03-05') });
    expect(draftToValue('daterange', 'onm', draft, bounds)).toEqual({ on: at('2026-03-05') });
    expect(draftToValue('daterange', 'inTheLast', draft, bounds)).toBe('3weeks');
    expect(draftToValue('daterange', 'inTheLast', { ...draft, count: 0 }, bounds)).toBeNull();
    expect(draftToValue('daterange', 'inBetween', { ...draft, end: null }, bounds)).toBeNull();
    expect(draftToValue('date', 'inBetween', draft, bounds)).toEqual({ on: at('2026-03-05') });
    expect(fmt(draftToValue('month', 'inBetween', draft, bounds))).toEqual(['2026-03-01 00:00:00.000', '2026-03-31 23:59:59.999']);
    // The current month ends with today, so the range stays valid.
    expect(fmt(draftToValue('monthrange', 'inBetween', draft, bounds))).toEqual(['2026-03-01 00:00:00.000', '2026-11-21 23:59:59.999']);
  });
});
