import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearBefore, dayFromParts, dayIn, hasUnprintable, isParamName, isTimeZone, matchesPattern, patternProblem, sanitizeKey, sanitizeValue } from './rules';

describe('analytics rules', () => {
  it('sanitises keys: trims, drops a leading $, dots and control characters, caps the length', () => {
    expect(sanitizeKey('  $$price.total\u0001 ')).toBe('price:total');
    expect(sanitizeKey('[CLY]_view')).toBe('[CLY]_view');
    expect(sanitizeKey('x'.repeat(300))).toHaveLength(128);
    expect(sanitizeKey({})).toBe('');
    expect(sanitizeValue(3)).toBe('3');
    expect(sanitizeValue(['a'])).toBeNull();
  });

  it('takes the day in the time zone', () => {
    const at = new Date(Date.UTC(2026, 0, 1, 2, 0));
    expect(dayIn('UTC', at)).toBe('2026-01-01');
    expect(dayIn('America/New_York', at)).toBe('2025-12-31');
    // Every seventh hour of a year, so each hour of the day comes round (daylight-saving changes,
    // a +05:45 zone, one across the date line): the formatted day is the one Intl's parts give.
    const differences: string[] = [];
    for (const timeZone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Apia', 'Australia/Lord_Howe']) {
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
      for (let hour = 0; hour < 366 * 24; hour += 7) {
        const instant = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000 + 1_799_000);
        if (dayIn(timeZone, instant) !== dayFromParts(parts, instant)) differences.push(`${timeZone} ${instant.toISOString()}`);
      }
    }
    expect(differences).toEqual([]);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Nowhere/City')).toBe(false);
  });

  it('cuts the clearing periods back from today', () => {
    expect(clearBefore('1month', '2026-03-31')).toBe('2026-02-28');
    expect(clearBefore('3months', '2026-05-15')).toBe('2026-02-15');
    expect(clearBefore('1year', '2026-06-15')).toBe('2025-06-15');
    expect(clearBefore('2years', '2026-06-15')).toBe('2024-06-15');
    expect(clearBefore('all', '2026-06-15')).toBeNull();
  });

  it('drops control characters and unpaired surrogates from keys and values, never splitting a pair', () => {
    expect(sanitizeKey('a\u0000b\ud800c\u007f\u0085')).toBe('abc');
    expect(sanitizeValue('x\udc00y')).toBe('xy');
    expect(sanitizeValue('😀')).toBe('😀');
    // A pair across the length cap is dropped whole rather than cut in half.
    expect(sanitizeKey(`${'k'.repeat(127)}😀`)).toBe('k'.repeat(127));
    expect(sanitizeValue(`${'v'.repeat(255)}😀`)).toBe('v'.repeat(255));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const key = sanitizeKey(raw);
        const value = sanitizeValue(raw) ?? '';
        return !hasUnprintable(key) && !hasUnprintable(value) && key.length <= 128 && value.length <= 256;
      }),
    );
  });
});

describe('token patterns', () => {
  it('takes printable literal text with * wildcards, at most 200 characters', () => {
    expect(patternProblem('/apps/*/events')).toBeNull();
    expect(patternProblem('(a|a)*')).toBeNull(); // literal text now, not an expression
    expect(patternProblem('/apps\u0000')).toBe('invalid');
    expect(patternProblem('\ud800')).toBe('invalid');
    expect(patternProblem('')).toBe('too_long');
    expect(patternProblem('a'.repeat(201))).toBe('too_long');
    expect(isParamName('from')).toBe(true);
    expect(isParamName(' ')).toBe(false);
    expect(isParamName('fr\u0001om')).toBe(false);
  });

  it('matches the whole value, * standing for any run of characters', () => {
    expect(matchesPattern('/apps', '/apps')).toBe(true);
    expect(matchesPattern('/apps', '/apps/1/clear')).toBe(false);
    expect(matchesPattern('/apps/*/events', '/apps/1/events')).toBe(true);
    expect(matchesPattern('/apps/*/events', '/apps/1/clear')).toBe(false);
    expect(matchesPattern('2026-*', '2026-01-01')).toBe(true);
    expect(matchesPattern('2026-*', '2025-01-01')).toBe(false);
    expect(matchesPattern('*', '')).toBe(true);
    expect(matchesPattern('a*a', 'a')).toBe(false);
    expect(matchesPattern('[^/]+', 'x')).toBe(false);
    expect(matchesPattern('(a|a)*', '(a|a)xyz')).toBe(true);
  });

  // The oracle is a regular expression over escaped literals: fine for short generated inputs.
  const oracle = (pattern: string, value: string) => new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`).test(value);
  const small = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'b', '*', '/'), maxLength });

  it('agrees with a regular-expression oracle on generated patterns and values', () => {
    fc.assert(fc.property(small(12), fc.string({ unit: fc.constantFrom('a', 'b', '*', '/'), maxLength: 20 }), (pattern, value) => matchesPattern(pattern, value) === oracle(pattern, value)), { numRuns: 5000 });
  });

  it('matches every value built from the pattern by filling its stars', () => {
    fc.assert(
      fc.property(small(12), fc.array(fc.string({ maxLength: 5 }), { maxLength: 13 }), (pattern, fills) => {
        const value = pattern.split('*').reduce((out, part, i) => (i === 0 ? part : `${out}${fills[i - 1] ?? ''}${part}`), '');
        return matchesPattern(pattern, value);
      }),
    );
  });

  it('answers patterns of many stars against long values (a backtracking engine would not finish)', () => {
    const manyStars = `${'*a'.repeat(99)}*b`;
    expect(matchesPattern(manyStars, 'a'.repeat(100_000))).toBe(false);
    expect(matchesPattern(manyStars, `${'a'.repeat(100_000)}b`)).toBe(true);
    expect(matchesPattern(`${'*ab'.repeat(66)}c`, `${'ab'.repeat(50_000)}`)).toBe(false);
    expect(matchesPattern(`${'*ab'.repeat(66)}c`, `${'ab'.repeat(50_000)}c`)).toBe(true);
    expect(matchesPattern(`${'*ab'.repeat(66)}*c`, `${'ab'.repeat(65)}c`)).toBe(false);
  });
});
