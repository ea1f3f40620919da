import { describe, expect, it } from 'vitest';
import { mauWarningShare } from './deployments';

describe('mauWarningShare', () => {
  it('warns at 90% and at 100% of the tier, never for an unknown tier', () => {
    expect([0, 449, 450, 499, 500, 5_000].map((used) => mauWarningShare(used, 500))).toEqual([0, 0, 90, 90, 100, 100]);
    expect(mauWarningShare(10, 0)).toBe(0);
  });
});
