import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forecastMau, type MauSample, type PastPeriod } from './forecast';
import { DEFAULT_MAU_ALERTS, dueMauAlerts, mauShareReached } from './mauRule';

const MARCH = { startsAt: '2026-03-01T00:00:00.000Z', endsAt: '2026-03-31T23:59:59.999Z' };
const day = (month: string, d: number) => `${month}-${String(d).padStart(2, '0')}`;
/** Daily samples of a cumulative curve f(d) for days 1..n. */
const curve = (month: string, n: number, f: (d: number) => number): MauSample[] => Array.from({ length: n }, (_, i) => ({ day: day(month, i + 1), used: Math.round(f(i + 1)) }));
/** A saturating month: most of its users come back in the first days (the usual MAU shape). */
const saturating = (total: number) => (d: number) => total * (1 - Math.exp(-d / 5));
const pastPeriod = (month: string, days: number, f: (d: number) => number): PastPeriod => ({ startsAt: `${month}-01T00:00:00.000Z`, used: Math.round(f(days)), samples: curve(month, days, f) });

describe('forecastMau', () => {
  it('a flat month: the same users as the months before, projected near their total', () => {
    const past = ['2025-12', '2026-01', '2026-02'].map((m) => pastPeriod(m, 28, saturating(1000)));
    const f = forecastMau({ period: MARCH, samples: curve('2026-03', 10, saturating(1000)), past, limit: 2000 });
    expect(f).toMatchObject({ basis: 'trendAndShape', periods: 3, days: 10, runOutOn: null, periodEnd: '2026-03-31' });
    // The shape alone says ~1000; the trend of a slowing curve says more: the range holds the truth.
    expect(f?.low).toBeLessThanOrEqual(1000);
    expect(f?.high).toBeGreaterThanOrEqual(1000);
    expect(f?.forecast).toBeLessThan(1500);
  });

  it('a growing server: the trend carries it past its tier and names the day', () => {
    const f = forecastMau({ period: MARCH, samples: curve('2026-03', 10, (d) => 50 * d), past: [], limit: 1000 });
    expect(f).toMatchObject({ used: 500, forecast: 1550, low: 1550, high: 1550, basis: 'trend', days: 10, runOutOn: '2026-03-20' });
  });

  it('a seasonal month (users arrive late): the past shape lifts the forecast above the trend alone', () => {
    const late = (d: number) => 30 * d + (d > 20 ? 150 * (d - 20) : 0);
    const past = ['2026-01', '2026-02'].map((m) => pastPeriod(m, 28, late));
    const trendOnly = forecastMau({ period: MARCH, samples: curve('2026-03', 10, late), past: [], limit: 5000 });
    const shaped = forecastMau({ period: MARCH, samples: curve('2026-03', 10, late), past, limit: 5000 });
    expect(trendOnly?.forecast).toBe(930);
    expect(shaped?.forecast).toBeGreaterThan(trendOnly?.forecast ?? 0);
    expect(shaped?.high).toBeGreaterThanOrEqual(late(28));
  });

  it('a new server with two days of data: a wide range, from what is counted to twice the pace', () => {
    const f = forecastMau({ period: MARCH, samples: [{ day: '2026-03-01', used: 40 }, { day: '2026-03-02', used: 80 }], past: [], limit: 1000 });
    expect(f).toMatchObject({ used: 80, forecast: 1240, low: 80, high: 2400, days: 2, runOutOn: '2026-03-25' });
  });

  it('a tier change mid-period counts the whole period against the new tier', () => {
    const samples = curve('2026-03', 15, (d) => 60 * d);
    const before = forecastMau({ period: MARCH, samples, past: [], limit: 1000 });
    const after = forecastMau({ period: MARCH, samples, past: [], limit: 2500 });
    expect(before?.forecast).toBe(after?.forecast);
    expect(before?.runOutOn).toBe('2026-03-17');
    expect(after?.runOutOn).toBeNull();
    // Already past the old tier: the day it was reached.
    expect(forecastMau({ period: MARCH, samples, past: [], limit: 500 })?.runOutOn).toBe('2026-03-09');
  });

  it('nothing sampled yet: no forecast', () => {
    expect(forecastMau({ period: MARCH, samples: [], past: [], limit: 1000 })).toBeNull();
  });

  it('always holds used ≤ low ≤ forecast ≤ high, in whole users, with a run-out day inside the period', () => {
    const sample = fc.record({ day: fc.integer({ min: 1, max: 31 }), used: fc.integer({ min: 0, max: 1_000_000 }) });
    const past = fc.record({ used: fc.integer({ min: 0, max: 1_000_000 }), samples: fc.array(sample, { maxLength: 31 }) });
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 31 }), fc.array(past, { maxLength: 4 }), fc.integer({ min: 0, max: 2_000_000 }), (s, p, limit) => {
        const f = forecastMau({
          period: MARCH,
          samples: s.map((x) => ({ day: day('2026-03', x.day), used: x.used })),
          past: p.map((x, i) => ({ startsAt: `2025-0${i + 1}-01T00:00:00.000Z`, used: x.used, samples: x.samples.filter((y) => y.day <= 28).map((y) => ({ day: day(`2025-0${i + 1}`, y.day), used: y.used })) })),
          limit,
        });
        if (s.length === 0) return f === null;
        if (!f) return false;
        const ints = [f.used, f.low, f.forecast, f.high].every(Number.isInteger);
        const ordered = f.used <= f.low && f.low <= f.forecast && f.forecast <= f.high;
        const inPeriod = f.runOutOn === null || (f.runOutOn >= '2026-03-01' && f.runOutOn <= '2026-03-31');
        const runsOut = limit > 0 && (f.forecast >= limit || f.used >= limit) && !(f.forecast === f.used && f.used < limit);
        return ints && ordered && inPeriod && (f.runOutOn !== null) === runsOut && f.used === Math.max(...s.map((x) => x.used));
      }),
    );
  });
});

describe('the MAU alert rule', () => {
  const none = [] as const;
  it('warns at 80% and at 100% of the tier, never for an unknown tier', () => {
    expect([0, 399, 400, 499, 500, 5_000].map((used) => mauShareReached(used, 500))).toEqual([0, 0, 80, 80, 100, 100]);
    expect(mauShareReached(10, 0)).toBe(0);
    expect(dueMauAlerts({ used: 400, limit: 500, forecast: null, sent: none, settings: DEFAULT_MAU_ALERTS })).toEqual({ send: 'share80', settle: ['share80'] });
  });

  it('sends each kind once a period: what was sent is not sent again', () => {
    expect(dueMauAlerts({ used: 450, limit: 500, forecast: null, sent: ['share80'], settings: DEFAULT_MAU_ALERTS })).toEqual({ send: null, settle: [] });
    expect(dueMauAlerts({ used: 500, limit: 500, forecast: null, sent: ['share80'], settings: DEFAULT_MAU_ALERTS })).toEqual({ send: 'share100', settle: ['share100', 'runOut'] });
    expect(dueMauAlerts({ used: 900, limit: 500, forecast: null, sent: ['share80', 'share100', 'runOut'], settings: DEFAULT_MAU_ALERTS })).toEqual({ send: null, settle: [] });
  });

  it('warns when the forecast first says the tier runs out, and a jump straight to 100% mails once', () => {
    const runsOut = { runOutOn: '2026-03-20' };
    expect(dueMauAlerts({ used: 100, limit: 500, forecast: runsOut, sent: none, settings: DEFAULT_MAU_ALERTS })).toEqual({ send: 'runOut', settle: ['runOut'] });
    expect(dueMauAlerts({ used: 100, limit: 500, forecast: runsOut, sent: ['runOut'], settings: DEFAULT_MAU_ALERTS }).send).toBeNull();
    expect(dueMauAlerts({ used: 600, limit: 500, forecast: runsOut, sent: none, settings: DEFAULT_MAU_ALERTS })).toEqual({ send: 'share100', settle: ['share80', 'share100', 'runOut'] });
  });

  it('a kind turned off is neither sent nor marked, the others still go', () => {
    const settings = { share80: false, share100: true, runOut: false };
    expect(dueMauAlerts({ used: 450, limit: 500, forecast: { runOutOn: '2026-03-20' }, sent: none, settings })).toEqual({ send: null, settle: [] });
    expect(dueMauAlerts({ used: 500, limit: 500, forecast: null, sent: none, settings })).toEqual({ send: 'share100', settle: ['share100'] });
  });
});
