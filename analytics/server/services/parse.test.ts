import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEvents } from './parse';

const at = new Date(Date.UTC(2026, 10, 20, 12));

describe('parseEvents numbers', () => {
  it('keeps count, sum and duration finite and bounded whatever an SDK sends', () => {
    const anyNumber = fc.oneof(fc.double(), fc.constantFrom('1e308', '-1e308', 'NaN', 'Infinity', '-Infinity', '1e999', '0x10', ' ', ''), fc.double().map(String), fc.anything());
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, (count, sum, dur) => {
        const [event] = parseEvents([{ key: 'k', count, sum, dur }], at);
        if (!event) return false;
        const within = (n: number | null, max: number) => n === null || (Number.isFinite(n) && Math.abs(n) <= max);
        return event.count > 0 && within(event.count, 1e9) && within(event.sum, 1e15) && within(event.dur, 1e9);
      }),
    );
  });

  it('counts numbers past the bounds as not sent, and keeps those within', () => {
    expect(parseEvents('[{"key":"k","count":1e308,"sum":1e999,"dur":"NaN"}]', at)).toEqual([{ key: 'k', count: 1, sum: null, dur: null, segmentation: {}, at }]);
    expect(parseEvents([{ key: 'k', count: '3', sum: -1e15, dur: 1e9 }], at)).toEqual([{ key: 'k', count: 3, sum: -1e15, dur: 1e9, segmentation: {}, at }]);
  });
});
