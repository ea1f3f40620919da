/** The table's control rules (SPEC §5 page clamping, §9 table constants), free of React. */
import { TABLE } from '../../domain/constants';

export type SortOrder = 'ASC' | 'DESC';
/** Same shape as react-admin's sort, so a list can pass it to the data provider unchanged. */
export interface TableSort {
  field: string;
  order: SortOrder;
}

/** What a server-side table asks its data source for. */
export interface TableQuery {
  page: number;
  perPage: number;
  sort: TableSort;
  searchQuery: string;
}

/** The persisted table control parameters of SPEC §3. */
export interface TableControls extends TableQuery {
  selectedDynamicCols: string[];
}

export const PAGE_SIZES: readonly number[] = TABLE.pageSizes;

export function defaultControls(selectedDynamicCols: string[] = [], sort: TableSort = TABLE.defaultSort): TableControls {
  return {
    page: 1,
    perPage: TABLE.defaultPageSize,
    sort: { ...sort },
    searchQuery: '',
    selectedDynamicCols,
  };
}

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** Any page number (typed, restored or stale) lands between 1 and the last page. */
export function clampPage(page: number, last: number): number {
  const whole = Number.isFinite(page) ? Math.trunc(page) : 1;
  return Math.min(Math.max(1, whole), Math.max(1, last));
}

/** The numbers of 'Showing _START_ to _END_ of _TOTAL_'. */
export function showingRange(page: number, perPage: number, total: number): { start: number; end: number; total: number } {
  if (total <= 0) return { start: 0, end: 0, total: 0 };
  const start = (page - 1) * perPage + 1;
  return { start, end: Math.min(total, page * perPage), total };
}

/** A list of pages is handy up to 200 pages; past that a number input is. */
export function pageSelectorKind(last: number): 'list' | 'input' {
  return last > TABLE.numberInputAbovePages ? 'input' : 'list';
}

/** The pages a list selector offers, never more than the cap. */
export function pageList(last: number): number[] {
  return Array.from({ length: Math.min(Math.max(1, last), TABLE.pageListCap) }, (_, i) => i + 1);
}

/** A header click sorts a new column ascending and flips the current one. */
export function nextSort(current: TableSort, field: string): TableSort {
  if (current.field !== field) return { field, order: 'ASC' };
  return { field, order: current.order === 'ASC' ? 'DESC' : 'ASC' };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads persisted controls field by field: anything missing or malformed (an old format, a hand
 * edit, a page size no longer offered) falls back to the default rather than breaking the table.
 */
export function parseControls(raw: unknown, fallback: TableControls, dynamicColumnIds: readonly string[]): TableControls {
  if (!isRecord(raw)) return fallback;
  const page = typeof raw.page === 'number' && Number.isInteger(raw.page) && raw.page >= 1 ? raw.page : fallback.page;
  const perPage = typeof raw.perPage === 'number' && PAGE_SIZES.includes(raw.perPage) ? raw.perPage : fallback.perPage;
  const sort =
    isRecord(raw.sort) && typeof raw.sort.field === 'string' && raw.sort.field && (raw.sort.order === 'ASC' || raw.sort.order === 'DESC')
      ? { field: raw.sort.field, order: raw.sort.order as SortOrder }
      : fallback.sort;
  const searchQuery = typeof raw.searchQuery === 'string' ? raw.searchQuery : fallback.searchQuery;
  const selectedDynamicCols = Array.isArray(raw.selectedDynamicCols)
    ? raw.selectedDynamicCols.filter((c): c is string => typeof c === 'string' && dynamicColumnIds.includes(c))
    : fallback.selectedDynamicCols;
  return { page, perPage, sort, searchQuery, selectedDynamicCols };
}
