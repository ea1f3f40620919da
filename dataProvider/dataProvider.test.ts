import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'ra-core';
import { dataProvider, withIds } from './dataProvider';

afterEach(() => vi.unstubAllGlobals());

describe('react-admin data provider over the envelope', () => {
  it('maps _id to id in lists and reads the total from Content-Range', async () => {
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ message: 'OK', payload: [{ _id: 'a1', name: 'Acme' }] }), {
        status: 200,
        headers: { 'content-range': 'companies 0-0/42', 'content-type': 'application/json' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const res = await dataProvider.getList('admin/companies', { pagination: { page: 1, perPage: 10 }, sort: { field: '_id', order: 'ASC' }, filter: { q: 'ac' } });
    expect(res.data).toEqual([{ _id: 'a1', id: 'a1', name: 'Acme' }]);
    expect(res.total).toBe(42);
    const url = decodeURIComponent(String((fetchMock.mock.calls[0] as unknown as [string])[0]));
    expect(url).toContain('/api/v1/admin/companies?');
    expect(url).toContain('range=[0,9]');
    expect(url).toContain('sort=["_id","ASC"]');
  });

  it('turns an error envelope into an HttpError with the SPEC §8 message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'Not found.', code: 'NOT_FOUND', payload: {} }), { status: 404 })));
    const error = await dataProvider.getOne('admin/users', { id: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'Not found.', status: 404 });
  });

  it('leaves values without _id alone', () => {
    expect(withIds([{ a: 1 }, 2, null])).toEqual([{ a: 1 }, 2, null]);
  });
});

describe('admin data-provider methods', () => {
  it('builds the streamed export URL from the list query', () => {
    const url = dataProvider.exportUrl('admin/users', { format: 'csv', sort: { field: 'email', order: 'DESC' }, filter: { q: 'ada' } });
    expect(url.startsWith('/api/v1/admin/users/export?')).toBe(true);
    const params = new URLSearchParams(url.split('?')[1]);
    expect(Object.fromEntries(params)).toEqual({ format: 'csv', sort: '["email","DESC"]', filter: '{"q":"ada"}' });
  });

  it('posts an action on one record and answers the record with its id', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ message: 'OK', payload: { _id: 'u1', locked: true } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const res = await dataProvider.recordAction<{ id: string; locked: boolean }>('admin/users', { id: 'u 1', action: 'lock' });
    expect(res.data).toEqual({ _id: 'u1', id: 'u1', locked: true });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/admin/users/u%201/lock');
    expect(init.method).toBe('POST');
  });

  it('refuses with the API message when an action is refused', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'Nope.', code: 'CANNOT_ACT_ON_SELF', payload: {} }), { status: 409 })));
    await expect(dataProvider.recordAction('admin/users', { id: 'me', action: 'lock' })).rejects.toMatchObject({ message: 'Nope.', status: 409 });
  });
});
