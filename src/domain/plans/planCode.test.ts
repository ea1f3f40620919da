import { describe, expect, it } from 'vitest';
import { mauFromPlanCode, parsePlanCode } from './planCode';

describe('plan code parsing', () => {
  it('reads the MAU tier with underscores as thousands separators', () => {
    expect(mauFromPlanCode('v3.mau_500_gcp.base')).toBe(500);
    expect(mauFromPlanCode('v3.mau_1_000_gcp.base')).toBe(1000);
    expect(mauFromPlanCode('v3.mau_2_500_000_gcp.base')).toBe(2_500_000);
  });

  it('reads the provider code, including hyphenated ones', () => {
    expect(parsePlanCode('v3.mau_10_000_mock-cloud.base')).toEqual({ mau: 10_000, provider: 'mock-cloud' });
  });

  it('refuses codes without a well-formed tier', () => {
    expect(mauFromPlanCode('v3.enterprise_gcp.base')).toBeNull();
    expect(mauFromPlanCode('v3.mau_1_00_gcp.base')).toBeNull();
    expect(mauFromPlanCode('mau_500_gcp')).toBeNull();
    expect(mauFromPlanCode('')).toBeNull();
  });
});
