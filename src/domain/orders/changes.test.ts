import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeRefusals, isChangeAllowed, periodEnd, prorate, type OrderShape } from './changes';

const paid: OrderShape = { provider: 'gcp', tier: 1000, free: false, region: 'us-central1', retentionOrder: 1, cycle: 'month' };
const free: OrderShape = { ...paid, tier: 500, free: true };

describe('changeRefusals (SPEC §4 edit rules)', () => {
  it('allows an upgrade, more retention, a region change on a paid plan and monthly ↔ yearly', () => {
    expect(changeRefusals(paid, { ...paid, tier: 5000, retentionOrder: 3, region: 'europe-west1', cycle: 'year' })).toEqual({});
    expect(changeRefusals({ ...paid, cycle: 'year' }, paid)).toEqual({});
    expect(changeRefusals(free, { ...paid, region: 'europe-west1' })).toEqual({});
  });

  it('refuses a region change while the plan stays free', () => {
    expect(changeRefusals(free, { ...free, region: 'europe-west1' })).toEqual({ 'planConfig.region': ['orders.freeRegionLocked'] });
  });

  it('refuses less retention, a lower tier and another provider, each under its field', () => {
    expect(changeRefusals({ ...paid, retentionOrder: 2 }, paid)).toEqual({ 'planConfig.features': ['orders.retentionDowngrade'] });
    expect(changeRefusals({ ...paid, retentionOrder: 2 }, { ...paid, retentionOrder: null })).toEqual({ 'planConfig.features': ['orders.retentionDowngrade'] });
    expect(changeRefusals(paid, free)).toEqual({ plan: ['orders.tierDowngrade'] });
    expect(changeRefusals(paid, { ...paid, tier: null })).toEqual({ plan: ['orders.tierDowngrade'] });
    expect(changeRefusals(paid, { ...paid, provider: 'mock-cloud' })).toEqual({ 'planConfig.provider': ['orders.providerChange'] });
  });

  const shape: fc.Arbitrary<OrderShape> = fc.record({
    provider: fc.constantFrom('gcp', 'mock-cloud'),
    tier: fc.option(fc.constantFrom(500, 1000, 5000, 10_000), { nil: null }),
    free: fc.boolean(),
    region: fc.constantFrom('a', 'b', 'c'),
    retentionOrder: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    cycle: fc.constantFrom('month' as const, 'year' as const),
  });

  it('always allows keeping the same order, whatever the cycle', () => {
    fc.assert(fc.property(shape, fc.constantFrom('month' as const, 'year' as const), (s, cycle) => {
        expect(isChangeAllowed(s, { ...s, cycle })).toBe(true);
      }),
    );
  });

  it('never allows a change and its reverse when the tier or retention moves: no way back down', () => {
    fc.assert(
      fc.property(shape, shape, (a, b) => {
        const moved = a.tier !== b.tier || (a.retentionOrder ?? 0) !== (b.retentionOrder ?? 0);
        if (moved) expect(isChangeAllowed(a, b) && isChangeAllowed(b, a)).toBe(false);
      }),
    );
  });

  it('chains: two allowed steps make an allowed change', () => {
    fc.assert(
      fc.property(shape, shape, shape, (a, b, c) => {
        fc.pre(isChangeAllowed(a, b) && isChangeAllowed(b, c) && !(a.free && c.free && a.region !== c.region));
        expect(isChangeAllowed(a, c)).toBe(true);
      }),
    );
  });
});

describe('prorate', () => {
  const start = new Date('2025-06-01T00:00:00Z');
  const end = new Date('2025-07-01T00:00:00Z');

  it('charges the price difference for the remaining part of the period', () => {
    const halfway = new Date('2025-06-16T00:00:00Z');
    expect(prorate({ currentTotal: 4900, nextTotal: 9900, cycleChanges: false, periodStart: start, periodEnd: end, now: halfway })).toEqual({ dueNow: 2500, credit: 0, remainingDays: 15 });
  });

  it('charges the whole new cycle less the unused part when the cycle changes', () => {
    const halfway = new Date('2025-06-16T00:00:00Z');
    expect(prorate({ currentTotal: 4900, nextTotal: 49_392, cycleChanges: true, periodStart: start, periodEnd: end, now: halfway })).toEqual({ dueNow: 49_392 - 2450, credit: 0, remainingDays: 15 });
  });

  it('credits a cheaper change and charges nothing after the period ended', () => {
    expect(prorate({ currentTotal: 9900, nextTotal: 4900, cycleChanges: false, periodStart: start, periodEnd: end, now: start })).toEqual({ dueNow: 0, credit: 5000, remainingDays: 30 });
    expect(prorate({ currentTotal: 4900, nextTotal: 9900, cycleChanges: false, periodStart: start, periodEnd: end, now: new Date('2025-08-01T00:00:00Z') })).toEqual({ dueNow: 0, credit: 0, remainingDays: 0 });
  });

  it('never charges more than the new price nor less than nothing, in whole cents', () => {
    fc.assert(
      fc.property(fc.nat(50_000_000), fc.nat(50_000_000), fc.boolean(), fc.integer({ min: 0, max: 40 * 86_400_000 }), (current, next, cycleChanges, elapsed) => {
        const p = prorate({ currentTotal: current, nextTotal: next, cycleChanges, periodStart: start, periodEnd: end, now: new Date(start.getTime() + elapsed) });
        expect(Number.isSafeInteger(p.dueNow) && Number.isSafeInteger(p.credit)).toBe(true);
        expect(p.dueNow).toBeGreaterThanOrEqual(0);
        expect(p.dueNow).toBeLessThanOrEqual(next);
        expect(p.credit).toBeLessThanOrEqual(current);
        expect(p.dueNow === 0 || p.credit === 0).toBe(true);
      }),
    );
  });
});

describe('periodEnd', () => {
  it('adds a calendar month (clamped to the month end) or a year', () => {
    expect(periodEnd(new Date('2025-01-31T10:00:00Z'), 'month').toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(periodEnd(new Date('2025-06-15T00:00:00Z'), 'month').toISOString()).toBe('2025-07-15T00:00:00.000Z');
    expect(periodEnd(new Date('2025-12-31T00:00:00Z'), 'month').toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(periodEnd(new Date('2024-02-29T00:00:00Z'), 'year').toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });
});
