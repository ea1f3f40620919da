import { MAX_KEY_LENGTH, MAX_PATTERN_LENGTH, MAX_VALUE_LENGTH, type ClearPeriod } from './constants';

/**
 * Control characters and unpaired surrogate halves (in a /u expression a pair is one code point):
 * never part of a key, value, id or pattern. PostgreSQL refuses NUL and a lone surrogate in JSON.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;
const UNPRINTABLE_ALL = /[\p{Cc}\p{Cs}]/gu;
export const hasUnprintable = (text: string) => UNPRINTABLE.test(text);

/** At most `max` code units of the text, without splitting a surrogate pair (half a pair is no text). */
export function cutText(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) && /[\uDC00-\uDFFF]/.test(text.charAt(max)) ? cut.slice(0, -1) : cut;
}

/** Text without unprintable characters, cut to `max` code units. */
const printableText = (text: string, max: number) => cutText(text.slice(0, max * 2).replace(UNPRINTABLE_ALL, ''), max);

/**
 * An event key or segment name as stored: trimmed, without the characters a document store would
 * read as paths or operators ('.' and a leading '$', as Countly does), capped in length.
 * An empty result means the key is unusable and the event is skipped.
 */
export function sanitizeKey(raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') return '';
  return printableText(String(raw).trim().replace(/^\$+/, '').replace(/\./g, ':'), MAX_KEY_LENGTH);
}

/** The prefix of the SDKs' own events ([CLY]_view, [CLY]_session...): not custom events ('[' and '_' escaped for LIKE). */
export const INTERNAL_PREFIX = '[CLY]\\_';
export const isInternal = (key: string) => key.startsWith('[CLY]_');
/** The SDKs' view event: one with `visit=1` when a view opens, another with its duration (`dur`) when it closes. */
export const VIEW_KEY = '[CLY]_view';

/** A segment value as stored: a string, capped; objects and arrays are not segment values. */
export function sanitizeValue(raw: unknown): string | null {
  if (typeof raw === 'string') return printableText(raw, MAX_VALUE_LENGTH);
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  return null;
}

// Making a formatter costs far more than using one, and using one far more than a lookup:
// ingestion asks for every event, and a request's events mostly share its instant. The en-CA
// date is already 'YYYY-MM-DD' (2.5 times faster than assembling it from formatToParts); a
// runtime whose locale data writes it otherwise gets the parts.
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; iso: boolean; lastMs: number; lastDay: string }>();
/** The day ('YYYY-MM-DD') of an instant in a time zone. */
export function dayIn(timeZone: string, at: Date): string {
  let zone = dayFormats.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    zone = { format, iso: ISO_DAY.test(format.format(0)), lastMs: NaN, lastDay: '' };
    dayFormats.set(timeZone, zone);
  }
  const ms = at.getTime();
  if (ms === zone.lastMs) return zone.lastDay;
  zone.lastDay = zone.iso ? zone.format.format(at) : dayFromParts(zone.format, at);
  zone.lastMs = ms;
  return zone.lastDay;
}

export function dayFromParts(format: Intl.DateTimeFormat, at: Date): string {
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
 * Whether a token pattern is acceptable: literal text where `*` stands for any run of characters
 * (none included), 1 to MAX_PATTERN_LENGTH printable characters. Patterns are never regular
 * expressions: a user-given one in a backtracking engine can stop the process.
 */
export function patternProblem(pattern: string): 'too_long' | 'invalid' | null {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) return 'too_long';
  return hasUnprintable(pattern) ? 'invalid' : null;
}

/** A token's query-parameter name: some printable text. */
export const isParamName = (name: string) => name.trim() !== '' && !hasUnprintable(name);

/**
 * Whether the whole value matches the pattern (anchored, so a token limited to '/apps' does not
 * also open '/apps/x/clear'). The parts between stars are found left to right, each at its first
 * place after the previous one: a leftmost placement never rules out a match a later one allows,
 * so there is no backtracking and the work is at most the value's length times the pattern's.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  const end = value.length - last.length;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    if (part === '') continue;
    const found = value.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
