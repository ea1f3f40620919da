import { describe, expect, it } from 'vitest';
import { deploymentPageSearch, totalOfContentRange } from './deployments';

describe('a page of GET /deployments', () => {
  it('asks for the range, sort and filter in the ra-data-simple-rest dialect', () => {
    const search = new URLSearchParams(deploymentPageSearch({ company: 'c-1', project: 'p-1', page: 3, perPage: 25, sort: { field: 'name', order: 'ASC' }, filter: { q: 'shop', status: undefined } }));
    expect(Object.fromEntries(search)).toEqual({ company: 'c-1', project: 'p-1', range: '[50,74]', sort: '["name","ASC"]', filter: '{"q":"shop"}' });
  });

  it('asks newest first with no project or filter when none is given', () => {
    const search = new URLSearchParams(deploymentPageSearch({ company: 'c-1', project: null, page: 1, perPage: 12, filter: { q: '' } }));
    expect(Object.fromEntries(search)).toEqual({ company: 'c-1', range: '[0,11]', sort: '["createdAt","DESC"]' });
  });

  it('reads the total from Content-Range, marking a counted-no-further total', () => {
    expect(totalOfContentRange('deployments 0-24/137', 25)).toEqual({ total: 137, bounded: false });
    expect(totalOfContentRange('deployments 0-24/10000+', 25)).toEqual({ total: 10000, bounded: true });
    expect(totalOfContentRange(null, 7)).toEqual({ total: 7, bounded: false });
  });
});
