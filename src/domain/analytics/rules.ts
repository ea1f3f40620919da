import { MAX_KEY_LENGTH, MAX_PATTERN_LENGTH, MAX_VALUE_LENGTH, type ClearPeriod } from './constants';

/** Control characters (below U+0020) never reach a key or a value. */
const printable = (c: string) => c.charCodeAt(0) >= 32;

/**
 * An event key or segment name as stored: trimmed, without the characters a document store would
 * read as paths or operators ('.' and a leading '$', as Countly does), capped in length.
 * An empty result means the key is unusable and the event is skipped.
 */
export function sanitizeKey(raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') return '';
  return String(raw)
    .trim()
    .replace(/^\$+/, '')
    .replace(/\./g, ':')
    .slice(0, MAX_KEY_LENGTH * 2)
    .split('')
    .filter(printable)
    .join('')
    .slice(0, MAX_KEY_LENGTH);
}

/** The prefix of the SDKs' own events ([CLY]_view, [CLY]_session...): not custom events ('[' and '_' escaped for LIKE). */
export const INTERNAL_PREFIX = '[CLY]\\_';
export const isInternal = (key: string) => key.startsWith('[CLY]_');

/** A segment value as stored: a string, capped; objects and arrays are not segment values. */
export function sanitizeValue(raw: unknown): string | null {
  if (typeof raw === 'string') return raw.slice(0, MAX_VALUE_LENGTH * 2).split('').filter(printable).join('').slice(0, MAX_VALUE_LENGTH);
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return null;
}

// Making a formatter costs far more than using one: ingestion asks for every event.
const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The day ('YYYY-MM-DD') of an instant in a time zone. */
export function dayIn(timeZone: string, at: Date): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The first day kept after clearing `period` of data before `today` ('all' clears everything: null). */
export function clearBefore(period: ClearPeriod, today: string): string | null {
  if (period === 'all') return null;
  const months = { '1month': 1, '3months': 3, '6months': 6, '1year': 12, '2years': 24 }[period];
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  // The same day of the month that many months back, or that month's last day (31 March → 28 February).
  const lastDay = new Date(Date.UTC(y, m - 1 - months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 - months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * Whether a token pattern is acceptable: short enough and a valid regular expression. Patterns
 * are anchored when matched, so a token limited to '/apps' does not also open '/apps/x/clear'.
 */
// A quantified group that itself ends in a quantifier, '(a+)+': the shape of catastrophic backtracking.
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}]\)(?:[+*]|\{\d)/;

export function patternProblem(pattern: string): 'too_long' | 'invalid' | null {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) return 'too_long';
  if (NESTED_QUANTIFIER.test(pattern)) return 'invalid';
  try {
    new RegExp(`^(?:${pattern})$`);
    return null;
  } catch {
    return 'invalid';
  }
}

export function matchesPattern(pattern: string, value: string): boolean {
  return new RegExp(`^(?:${pattern})$`).test(value);
}
