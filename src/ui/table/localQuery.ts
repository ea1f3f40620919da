/** Search and sort of local arrays: what a server does for server-side tables. */
import { cellText, type CellValue, type DataTableColumn } from './columns';
import type { TableSort } from './tableQuery';

const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

/** The sort value of a row: its column's value, or the raw field (the default sort `_id` need not be a column). */
function sortValue<T>(row: T, field: string, column: DataTableColumn<T> | undefined): CellValue {
  if (column) return column.value(row);
  if (typeof row === 'object' && row !== null && field in row) {
    const raw = (row as Record<string, unknown>)[field];
    if (raw === null || ['string', 'number', 'boolean'].includes(typeof raw) || raw instanceof Date) return raw as CellValue;
  }
  return undefined;
}

/** Ascending comparison; empty values last whatever the order, so they never crowd the first page. */
function compareValues(a: CellValue, b: CellValue): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  const na = a instanceof Date ? a.getTime() : Number(a);
  const nb = b instanceof Date ? b.getTime() : Number(b);
  if (Number.isNaN(na) || Number.isNaN(nb)) return collator.compare(cellText(a), cellText(b));
  return na - nb;
}

/** Case-insensitive substring search over the shown columns. */
export function searchRows<T>(rows: readonly T[], columns: readonly DataTableColumn<T>[], searchQuery: string): readonly T[] {
  const needle = searchQuery.trim().toLocaleLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => columns.some((c) => cellText(c.value(row)).toLocaleLowerCase().includes(needle)));
}

export function sortRows<T>(rows: readonly T[], columns: readonly DataTableColumn<T>[], sort: TableSort): T[] {
  const column = columns.find((c) => c.id === sort.field);
  const direction = sort.order === 'DESC' ? -1 : 1;
  // Values are read once per row, not once per comparison: 100,000 rows stay quick.
  const keyed = rows.map((row, index) => ({ row, index, key: sortValue(row, sort.field, column) }));
  keyed.sort((a, b) => {
    const emptyA = a.key === null || a.key === undefined || a.key === '';
    const emptyB = b.key === null || b.key === undefined || b.key === '';
    const byValue = emptyA || emptyB ? compareValues(a.key, b.key) : direction * compareValues(a.key, b.key);
    return byValue || a.index - b.index;
  });
  return keyed.map((k) => k.row);
}

/** Every row of the current query (all pages): what the table pages through and what export writes. */
export function queryRows<T>(rows: readonly T[], columns: readonly DataTableColumn<T>[], query: { sort: TableSort; searchQuery: string }): T[] {
  return sortRows(searchRows(rows, columns, query.searchQuery), columns, query.sort);
}

export function pageOf<T>(rows: readonly T[], page: number, perPage: number): T[] {
  return rows.slice((page - 1) * perPage, page * perPage);
}
