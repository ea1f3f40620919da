import { describe, expect, it, vi } from 'vitest';
import { keysetGetList } from './keysetPages';

/** A server answering `total` rows, each page with cursors named after the page it starts at. */
function server(total: string) {
  const fetchJson = vi.fn(async (url: string) => {
    const range = JSON.parse(new URL(url, 'http://x').searchParams.get('range') ?? '[0,9]') as [number, number];
    return { headers: new Headers({ 'content-range': `users ${range[0]}-${range[1]}/${total}`, 'x-cursor-first': `f${range[0]}`, 'x-cursor-last': `l${range[1]}` }), json: [{ id: String(range[0]) }] };
  });
  const asked = () => fetchJson.mock.calls.map(([url]) => Object.fromEntries(new URL(url, 'http://x').searchParams));
  return { fetchJson, asked };
}
const params = (page: number, filter: Record<string, unknown> = {}) => ({ pagination: { page, perPage: 10 }, sort: { field: 'email', order: 'ASC' as const }, filter });

describe('keyset paging behind react-admin page numbers', () => {
  it('asks the next page after the last row, the previous before the first, the last by end', async () => {
    const { fetchJson, asked } = server('100');
    const getList = keysetGetList('/api/v1', fetchJson);
    expect((await getList('admin/users', params(1))).total).toBe(100);
    await getList('admin/users', params(2));
    await getList('admin/users', params(10));
    await getList('admin/users', params(9));
    await getList('admin/users', params(5));
    const calls = asked();
    expect(calls[0]).toMatchObject({ range: '[0,9]' });
    expect(calls[0]?.after).toBeUndefined();
    expect(calls[1]).toMatchObject({ range: '[10,19]', after: 'l9' });
    expect(calls[2]).toMatchObject({ range: '[90,99]', before: 'end' });
    expect(calls[3]).toMatchObject({ range: '[80,89]', before: 'f90' });
    // Far from any page read: by range.
    expect(calls[4]).toMatchObject({ range: '[40,49]' });
    expect(calls[4]?.after ?? calls[4]?.before).toBeUndefined();
  });

  it('keeps each filter apart and never asks the end of a list counted only to "10000+"', async () => {
    const { fetchJson, asked } = server('10000+');
    const getList = keysetGetList('/api/v1', fetchJson);
    expect((await getList('admin/users', params(1, { q: 'a' }))).total).toBe(10_000);
    await getList('admin/users', params(1000, { q: 'a' }));
    await getList('admin/users', params(2, { q: 'b' }));
    const calls = asked();
    expect(calls[1]?.before).toBeUndefined();
    expect(calls[2]?.after).toBeUndefined();
  });
});
