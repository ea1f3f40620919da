import { browserStorage, readJson, writeJson } from '../storage';
import { parseControls, type TableControls } from './tableQuery';

/** One local-storage entry per table id. */
export const tableStorageKey = (tableId: string) => `beacon.table.${tableId}`;

export function loadControls(tableId: string, fallback: TableControls, dynamicColumnIds: readonly string[], storage = browserStorage()): TableControls {
  return parseControls(readJson(tableStorageKey(tableId), storage), fallback, dynamicColumnIds);
}

export function saveControls(tableId: string, controls: TableControls, storage = browserStorage()): void {
  const { page, perPage, searchQuery, sort, selectedDynamicCols } = controls;
  writeJson(tableStorageKey(tableId), { page, perPage, searchQuery, sort, selectedDynamicCols }, storage);
}
