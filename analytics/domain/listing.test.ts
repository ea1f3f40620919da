import { describe, expect, it } from 'vitest';
import { appListQuerySchema, pageOf } from './listing';

const rows = [
  { _id: '1', name: 'Notes', n: 3 },
  { _id: '2', name: 'Shop', n: 1 },
  { _id: '3', name: 'notebook', n: 2 },
];
const keys = { name: (r: (typeof rows)[number]) => r.name, n: (r: (typeof rows)[number]) => r.n };

describe('a management list page', () => {
  it('searches any text field regardless of case, sorts by the asked column and cuts one page', () => {
    expect(pageOf(rows, { q: 'NOTE', sort: 'name', order: 'DESC', page: 1, perPage: 1 }, keys)).toEqual({ rows: [rows[0]], total: 2 });
    expect(pageOf(rows, { sort: 'n', order: 'ASC', page: 2, perPage: 2 }, keys)).toEqual({ rows: [rows[0]], total: 3 });
  });

  it('answers the whole list in its own order without a page', () => {
    expect(pageOf(rows, {}, keys)).toEqual({ rows, total: 3 });
  });

  it('takes the query string as the route reads it, and refuses an unknown column', () => {
    expect(appListQuerySchema.parse({ page: '2', perPage: '25', sort: 'name', order: 'ASC' })).toEqual({ page: 2, perPage: 25, sort: 'name', order: 'ASC' });
    expect(appListQuerySchema.safeParse({ sort: 'checksumSalt' }).success).toBe(false);
  });
});
