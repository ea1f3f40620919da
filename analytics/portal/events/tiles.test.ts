import { describe, expect, it } from 'vitest';
import { tileProblem } from './tiles';

describe('overview tiles (SPEC §5)', () => {
  it('refuses the same event and property twice', () => {
    expect(tileProblem([{ eventKey: 'buy', property: 'sum' }], { eventKey: 'buy', property: 'sum' })).toBe('duplicate');
    expect(tileProblem([{ eventKey: 'buy', property: 'sum' }], { eventKey: 'buy', property: 'count' })).toBeNull();
  });
  it('refuses a 13th tile', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({ eventKey: `e${i}`, property: 'count' as const }));
    expect(tileProblem(twelve.slice(0, 11), { eventKey: 'x', property: 'count' })).toBeNull();
    expect(tileProblem(twelve, { eventKey: 'x', property: 'count' })).toBe('max');
  });
});
