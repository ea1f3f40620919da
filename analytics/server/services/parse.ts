import { createHash } from 'node:crypto';
import { sanitizeKey, sanitizeValue } from '../../domain/rules';

/** One SDK request as the route hands it over: the merged parameters and the raw text they came in. */
export interface IngestRequest {
  params: Record<string, unknown>;
  /** The query string without '?', as sent. */
  rawQuery: string;
  /** The body as sent ('' for GET). */
  rawBody: string;
  /** The server whose own address the request came to: only its apps' keys are taken there. */
  deploymentId?: string;
}

export interface ParsedEvent {
  key: string;
  count: number;
  sum: number | null;
  dur: number | null;
  segmentation: Record<string, string>;
  at: Date;
}

/** At most this many events per request are read; a longer batch is cut (the SDKs send 100 or fewer). */
export const MAX_EVENTS_PER_REQUEST = 1_000;
const MAX_SESSION_SECONDS = 86_400;
const MAX_SEGMENTS_READ = 256;
/**
 * An event's numbers are used only within these bounds (count above 0): beyond them a number
 * counts as not sent (count 1, no sum or duration), like text that is no number. Past them is no
 * real event, and 1e308 overflowed the daily totals, after which reading them failed.
 */
const EVENT_NUMBER_BOUNDS = { count: 1e9, sum: 1e15, dur: 1e9 } as const;

/** SDK parameters may be JSON in a string (query and form encoding) or already parsed (JSON bodies). */
export function jsonParam(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

function num(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Countly timestamps are milliseconds, older SDKs send seconds; missing, bad or far-future ones mean now. */
export function requestTime(value: unknown, now = new Date()): Date {
  const n = num(value);
  if (n === null || n <= 0) return now;
  const ms = n < 1e12 ? n * 1000 : n;
  return ms > now.getTime() + 86_400_000 ? now : new Date(ms);
}

/** A number within ±max (count, sum and duration of an event), or null. */
function bounded(value: unknown, max: number): number | null {
  const n = num(value);
  return n !== null && Math.abs(n) <= max ? n : null;
}

export function sessionSeconds(value: unknown): number {
  const n = num(value);
  return n === null || n < 0 ? 0 : Math.min(n, MAX_SESSION_SECONDS);
}

/** The events of a request: keys sanitised, unusable ones skipped, count 1 by default. */
export function parseEvents(value: unknown, at: Date): ParsedEvent[] {
  const list = jsonParam(value);
  if (!Array.isArray(list)) return [];
  const events: ParsedEvent[] = [];
  for (const raw of list.slice(0, MAX_EVENTS_PER_REQUEST)) {
    if (!raw || typeof raw !== 'object') continue;
    const e = raw as Record<string, unknown>;
    const key = sanitizeKey(e.key);
    if (!key) continue;
    const count = bounded(e.count, EVENT_NUMBER_BOUNDS.count);
    const segmentation: Record<string, string> = {};
    const seg = jsonParam(e.segmentation);
    if (seg && typeof seg === 'object' && !Array.isArray(seg)) {
      for (const [name, v] of Object.entries(seg as Record<string, unknown>).slice(0, MAX_SEGMENTS_READ)) {
        const segment = sanitizeKey(name);
        const segValue = sanitizeValue(v);
        if (segment && segValue !== null) segmentation[segment] = segValue;
      }
    }
    events.push({ key, count: count === null || count <= 0 ? 1 : count, sum: bounded(e.sum, EVENT_NUMBER_BOUNDS.sum), dur: bounded(e.dur, EVENT_NUMBER_BOUNDS.dur), segmentation, at: e.timestamp === undefined ? at : requestTime(e.timestamp, at) });
  }
  return events;
}

const CHECKSUM_PARAMS = /(^|&)(checksum|checksum256|rr)=[^&]*/g;

/** The raw text without the dynamic parameters (rr, checksums), leading '&' dropped. */
function strip(raw: string, names: RegExp): string {
  return raw.replace(names, '').replace(/^&/, '');
}

/**
 * Countly's optional checksum: sha1 (`checksum`) or sha256 (`checksum256`) over the query string or
 * the body, without the checksum parameter itself, followed by the app's salt; either may match.
 */
export function checksumMatches(request: IngestRequest, salt: string): boolean {
  const sha1 = str(request.params.checksum);
  const sha256 = str(request.params.checksum256);
  if (!sha1 && !sha256) return false;
  const candidates = [request.rawQuery, request.rawBody].filter((p) => p !== '');
  return candidates.some((payload) => {
    if (sha1 && createHash('sha1').update(strip(payload, /(^|&)checksum=[^&]*/g) + salt).digest('hex') === sha1.toLowerCase()) return true;
    return !!sha256 && createHash('sha256').update(strip(payload, /(^|&)checksum256=[^&]*/g) + salt).digest('hex') === sha256.toLowerCase();
  });
}

/**
 * The request's identity for spotting SDK retries (as Countly does): the payload without the
 * parameters that change between attempts (rr, checksums), hashed, plus the SDK's own timestamp.
 */
export function requestHash(request: IngestRequest): string {
  const payload = `${strip(request.rawQuery, CHECKSUM_PARAMS)}&${strip(request.rawBody, CHECKSUM_PARAMS)}`;
  return createHash('sha1').update(payload).digest('hex') + (str(request.params.timestamp) ?? '');
}

/** User details Countly SDKs send (name, email, custom, ...); only plain values are kept. */
export function parseUserDetails(value: unknown): Record<string, unknown> {
  const details = jsonParam(value);
  if (!details || typeof details !== 'object' || Array.isArray(details)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details as Record<string, unknown>).slice(0, 64)) {
    const key = sanitizeKey(k);
    if (!key) continue;
    if (key === 'custom' && v && typeof v === 'object' && !Array.isArray(v)) {
      out.custom = Object.fromEntries(Object.entries(v as Record<string, unknown>).slice(0, 64).flatMap(([ck, cv]) => { const value = sanitizeValue(cv); const name = sanitizeKey(ck); return value !== null && name ? [[name, value]] : []; }));
    } else {
      const value = sanitizeValue(v);
      if (value !== null) out[key] = value;
    }
  }
  return out;
}

/** Device metrics (_os, _app_version, ...), as strings. */
export function parseMetrics(value: unknown): Record<string, string> {
  const metrics = jsonParam(value);
  if (!metrics || typeof metrics !== 'object' || Array.isArray(metrics)) return {};
  return Object.fromEntries(Object.entries(metrics as Record<string, unknown>).slice(0, 64).flatMap(([k, v]) => { const value = sanitizeValue(v); const key = sanitizeKey(k); return value !== null && key ? [[key, value]] : []; }));
}
