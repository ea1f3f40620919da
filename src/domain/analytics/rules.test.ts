import { describe, expect, it } from 'vitest';
import { clearBefore, dayIn, isTimeZone, matchesPattern, patternProblem, sanitizeKey, sanitizeValue } from './rules';

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

  it('accepts token patterns that compile and are short, anchored when matched', () => {
    expect(patternProblem('/apps/[^/]+/events')).toBeNull();
    expect(patternProblem('(')).toBe('invalid');
    expect(patternProblem('(a+)+')).toBe('invalid');
    expect(patternProblem('')).toBe('too_long');
    expect(patternProblem('a'.repeat(201))).toBe('too_long');
    expect(matchesPattern('/apps', '/apps')).toBe(true);
    expect(matchesPattern('/apps', '/apps/1/clear')).toBe(false);
  });
});
