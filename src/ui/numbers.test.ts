import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount } from './numbers';

describe('numbers', () => {
  it('writes counts with thousands separators', () => {
    expect(formatCount(100_000)).toBe('100,000');
  });

  it('writes a size in the largest decimal unit that reads at least 1', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(940)).toBe('940 B');
    expect(formatBytes(4_210)).toBe('4.2 kB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(999_999)).toBe('1 MB');
    expect(formatBytes(52_000_000)).toBe('52 MB');
    expect(formatBytes(3_450_000_000)).toBe('3.5 GB');
  });
});
