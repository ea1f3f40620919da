import { describe, expect, it } from 'vitest';
import { clampPage, defaultControls, lastPage, nextSort, PAGE_SIZES, pageList, pageSelectorKind, parseControls, showingRange } from './tableQuery';

describe('table controls', () => {
  it('defaults to 10 rows, page 1 and _id ascending, with the spec page sizes', () => {
    expect(defaultControls()).toEqual({ page: 1, perPage: 10, sort: { field: '_id', order: 'ASC' }, searchQuery: '', selectedDynamicCols: [] });
    expect(PAGE_SIZES).toEqual([5, 10, 20, 50, 100, 200, 1000]);
  });

  it('counts pages, with one page even when empty', () => {
    expect(lastPage(0, 10)).toBe(1);
    expect(lastPage(10, 10)).toBe(1);
    expect(lastPage(11, 10)).toBe(2);
    expect(lastPage(100_000, 1000)).toBe(100);
  });

  it('clamps page numbers between 1 and the last page', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-3, 5)).toBe(1);
    expect(clampPage(6, 5)).toBe(5);
    expect(clampPage(99_999, 5)).toBe(5);
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(2.7, 5)).toBe(2);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(Number.POSITIVE_INFINITY, 5)).toBe(1);
    expect(clampPage(4, 0)).toBe(1);
  });

  it("gives the numbers of 'Showing _START_ to _END_ of _TOTAL_'", () => {
    expect(showingRange(1, 10, 95)).toEqual({ start: 1, end: 10, total: 95 });
    expect(showingRange(10, 10, 95)).toEqual({ start: 91, end: 95, total: 95 });
    expect(showingRange(1, 10, 0)).toEqual({ start: 0, end: 0, total: 0 });
  });

  it('switches the page selector to a number input above 200 pages', () => {
    expect(pageSelectorKind(1)).toBe('list');
    expect(pageSelectorKind(200)).toBe('list');
    expect(pageSelectorKind(201)).toBe('input');
  });

  it('caps the page list at 10000 entries', () => {
    expect(pageList(3)).toEqual([1, 2, 3]);
    expect(pageList(0)).toEqual([1]);
    const capped = pageList(25_000);
    expect(capped).toHaveLength(10_000);
    expect(capped.at(-1)).toBe(10_000);
  });

  it('sorts a new column ascending and flips the current one', () => {
    expect(nextSort({ field: '_id', order: 'ASC' }, 'name')).toEqual({ field: 'name', order: 'ASC' });
    expect(nextSort({ field: 'name', order: 'ASC' }, 'name')).toEqual({ field: 'name', order: 'DESC' });
    expect(nextSort({ field: 'name', order: 'DESC' }, 'name')).toEqual({ field: 'name', order: 'ASC' });
  });

  it('reads persisted controls field by field, falling back on anything malformed', () => {
    const fallback = defaultControls(['email']);
    expect(parseControls(null, fallback, ['email'])).toBe(fallback);
    expect(parseControls('junk', fallback, ['email'])).toBe(fallback);
    const good = { page: 3, perPage: 50, sort: { field: 'name', order: 'DESC' }, searchQuery: 'ada', selectedDynamicCols: ['email'] };
    expect(parseControls(good, fallback, ['email'])).toEqual(good);
    expect(parseControls({ page: 0, perPage: 7, sort: { field: 'x', order: 'UP' }, searchQuery: 3, selectedDynamicCols: ['gone', 'email', 4] }, fallback, ['email'])).toEqual({
      ...fallback,
      selectedDynamicCols: ['email'],
    });
  });
});
