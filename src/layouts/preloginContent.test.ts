import { describe, expect, it } from 'vitest';
import { pickBrands } from './preloginContent';

const brands = Array.from({ length: 8 }, (_, i) => ({ logo: `/b${i}.svg`, size: 'medium' as const, alt: `B${i}` }));

describe('brand logos of the marketing panel', () => {
  it('shows four logos starting at an offset from 0 to 3', () => {
    expect(pickBrands(brands, () => 0).map((b) => b.alt)).toEqual(['B0', 'B1', 'B2', 'B3']);
    expect(pickBrands(brands, () => 0.999).map((b) => b.alt)).toEqual(['B3', 'B4', 'B5', 'B6']);
    for (let i = 0; i < 50; i += 1) expect(pickBrands(brands)).toHaveLength(4);
  });

  it('falls back to the first logos when the list is shorter than the offset', () => {
    expect(pickBrands(brands.slice(0, 2), () => 0.999).map((b) => b.alt)).toEqual(['B0', 'B1']);
  });
});
