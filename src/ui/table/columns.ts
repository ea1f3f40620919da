import type { ReactNode } from 'react';

export type CellValue = string | number | boolean | Date | null | undefined;

export interface DataTableColumn<T> {
  /** Stable id; for server-side data also the field the server sorts by. */
  id: string;
  /** Already translated header text; also the column's accessible name and CSV heading. */
  header: string;
  /** The raw value: searched, sorted and exported. */
  value: (row: T) => CellValue;
  /** Custom cell content; the text of `value` otherwise. */
  render?: (row: T) => ReactNode;
  /** Defaults to true. */
  sortable?: boolean;
  /** An optional column the user turns on or off in the column chooser. */
  dynamic?: boolean;
  /** Whether a dynamic column is shown before the user chooses. */
  defaultSelected?: boolean;
  align?: 'left' | 'right';
  /** False for columns with nothing to export, such as row actions. Defaults to true. */
  exportable?: boolean;
}

/** Plain text of a value: what a cell shows by default, what search matches and what CSV holds. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value);
}

export function dynamicColumnIds<T>(columns: readonly DataTableColumn<T>[]): string[] {
  return columns.filter((c) => c.dynamic).map((c) => c.id);
}

export function defaultSelectedColumnIds<T>(columns: readonly DataTableColumn<T>[]): string[] {
  return columns.filter((c) => c.dynamic && c.defaultSelected).map((c) => c.id);
}

/** Fixed columns always show; dynamic ones only when selected. */
export function visibleColumns<T>(columns: readonly DataTableColumn<T>[], selectedDynamicCols: readonly string[]): DataTableColumn<T>[] {
  return columns.filter((c) => !c.dynamic || selectedDynamicCols.includes(c.id));
}

/** The row actions column (edit, delete...): never sorted, searched or exported. */
export function actionsColumn<T>(render: (row: T) => ReactNode, options: { header?: string; align?: 'left' | 'right' } = {}): DataTableColumn<T> {
  return { id: 'actions', header: options.header ?? '', sortable: false, exportable: false, align: options.align, value: () => '', render };
}
