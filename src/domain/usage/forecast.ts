import { z } from 'zod';
import type { MauAlertSettings } from './mauRule';

/**
 * Where this period's monthly active users are heading, and the alerts that follow.
 * Pure and isomorphic: the worker stores the forecast with each MAU sample, screens show it.
 *
 * The model is meant to be explained in one line: the trend of the last days' new distinct devices
 * carried to the period's end, averaged with "the share of the month's users past periods had by
 * this day" (one vote per past period sampled daily). The range is the slowest and fastest of those.
 */

const DAY_MS = 86_400_000;
/** Days of the current period whose growth makes the trend. */
export const TREND_DAYS = 7;
/** Fewer daily samples than this: the trend is a guess, so the range is widened. */
const FEW_DAYS = 3;

/** One daily sample: distinct devices of the period so far, at the end of that UTC day. */
export interface MauSample {
  day: string;
  used: number;
}

export interface PastPeriod {
  startsAt: string;
  /** The period's final MAU. */
  used: number;
  samples: MauSample[];
}

export interface ForecastInput {
  period: { startsAt: string; endsAt: string };
  /** This period's daily samples, any order. */
  samples: MauSample[];
  past: PastPeriod[];
  /** The tier now (a tier change mid-period counts the whole period against the new tier). */
  limit: number;
}

export const FORECAST_BASES = ['trend', 'trendAndShape'] as const;
export const mauForecastSchema = z.object({
  used: z.number().int(),
  forecast: z.number().int(),
  low: z.number().int(),
  high: z.number().int(),
  basis: z.enum(FORECAST_BASES),
  /** Days of this period with data (the trend's evidence). */
  days: z.number().int(),
  /** Past periods whose shape was used. */
  periods: z.number().int(),
  /** The UTC day (YYYY-MM-DD) the tier is (or was) reached this period; null when the forecast stays below it. */
  runOutOn: z.string().nullable(),
  /** The period's last day (YYYY-MM-DD), for "by the end of the month". */
  periodEnd: z.string(),
});
export type MauForecast = z.infer<typeof mauForecastSchema>;

/** Whether the forecast says anything yet: with no user counted and no pace, every figure is 0. */
export const forecastHasData = (f: Pick<MauForecast, 'used' | 'high'>): boolean => f.used > 0 || f.high > 0;

const dayNumber = (iso: string) => Math.floor(Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso) / DAY_MS);
const dayString = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Cumulative samples, sorted, never decreasing (a device counted once stays counted). */
function cumulative(samples: MauSample[]): { index: number; used: number }[] {
  const byDay = new Map<number, number>();
  for (const s of samples) byDay.set(dayNumber(s.day), Math.max(byDay.get(dayNumber(s.day)) ?? 0, Math.max(0, Math.round(s.used))));
  let top = 0;
  return [...byDay.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, used]) => ((top = Math.max(top, used)), { index, used: top }));
}

/** The share of a past period's final MAU it had reached by day `offset` of that period (null: not sampled by then). */
function shareByDay(p: PastPeriod, offset: number): number | null {
  if (p.used <= 0) return null;
  const start = dayNumber(p.startsAt);
  const reached = cumulative(p.samples).filter((s) => s.index - start <= offset).at(-1);
  return reached && reached.used > 0 ? Math.min(1, reached.used / p.used) : null;
}

/** This period's forecast, or null before its first sample. */
export function forecastMau(input: ForecastInput): MauForecast | null {
  const start = dayNumber(input.period.startsAt);
  const last = dayNumber(input.period.endsAt);
  const points = cumulative(input.samples).filter((s) => s.index >= start && s.index <= last);
  const now = points.at(-1);
  if (!now) return null;
  const used = now.used;
  const remaining = last - now.index;

  // Trend: new devices a day over the last TREND_DAYS days (the period started at 0).
  const seq = [{ index: start - 1, used: 0 }, ...points];
  const first = Math.min(seq.length - 2, Math.max(0, seq.findIndex((p) => p.index >= now.index - TREND_DAYS)));
  const window = seq.slice(first);
  const base = window[0] ?? { index: start - 1, used: 0 };
  const rate = (used - base.used) / (now.index - base.index);
  const rates = window.slice(1).map((p, i) => {
    const before = window[i] ?? base;
    return (p.used - before.used) / (p.index - before.index);
  });
  // Few samples (a new server, or one whose sampling just began) make the pace a guess.
  const few = points.length < FEW_DAYS;
  const trend = used + rate * remaining;
  let low = few ? used : used + Math.min(rate, ...rates) * remaining;
  let high = used + (few ? 2 * rate : Math.max(rate, ...rates)) * remaining;
  let forecast = trend;

  // Shape: what share of their final MAU past periods had by this day.
  const shares = input.past.map((p) => shareByDay(p, now.index - start)).filter((s): s is number => s !== null);
  if (shares.length > 0 && used > 0) {
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    const shaped = used / mean;
    // Each past period is one more witness for the shape; the trend counts as one.
    forecast = (trend + shares.length * shaped) / (shares.length + 1);
    low = Math.min(low, used / Math.max(...shares));
    high = Math.max(high, used / Math.min(...shares));
  }

  const f = Math.max(used, Math.round(forecast));
  const result: MauForecast = {
    used,
    forecast: f,
    low: Math.min(f, Math.max(used, Math.floor(low))),
    high: Math.max(f, Math.ceil(high)),
    basis: shares.length > 0 && used > 0 ? 'trendAndShape' : 'trend',
    days: points.length,
    periods: used > 0 ? shares.length : 0,
    runOutOn: null,
    periodEnd: dayString(last),
  };
  result.runOutOn = runOutDay(points, result, input.limit, now.index, remaining);
  return result;
}

/** The day the tier is reached: the sample that reached it, or along a straight line to the forecast. */
function runOutDay(points: { index: number; used: number }[], f: MauForecast, limit: number, today: number, remaining: number): string | null {
  if (limit <= 0) return null;
  const reached = points.find((p) => p.used >= limit);
  if (reached) return dayString(reached.index);
  if (f.forecast < limit || f.forecast === f.used) return null;
  const days = Math.max(1, Math.ceil(((limit - f.used) / (f.forecast - f.used)) * remaining));
  return dayString(today + Math.min(days, remaining));
}

export const mauAlertSettingsSchema = z.object({ share80: z.boolean(), share100: z.boolean(), runOut: z.boolean() }) satisfies z.ZodType<MauAlertSettings>;
