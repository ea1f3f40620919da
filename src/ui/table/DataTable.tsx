import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import { columnVisibilityFeature, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { useEffect, useEffectEvent, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../../domain/constants';
import { EmptyView } from '../EmptyView';
import { useDebouncedCallback } from '../useDebouncedCallback';
import { ColumnChooser } from './ColumnChooser';
import { cellText, defaultSelectedColumnIds, dynamicColumnIds, visibleColumns, type DataTableColumn } from './columns';
import { buildExportParts, downloadLink, downloadParts, exportFileName, type ExportFormat } from './exportFile';
import { ExportMenu } from './ExportMenu';
import { pageOf, queryRows } from './localQuery';
import { loadControls, saveControls } from './tablePersistence';
import { TablePager } from './TablePager';
import { clampPage, defaultControls, lastPage, nextSort, type TableControls, type TableQuery, type TableSort } from './tableQuery';

/** A local array: the table searches, sorts, pages and exports it in the browser. */
export interface LocalTableSource<T> {
  kind: 'local';
  /** Keep the reference stable (state or memo): a new array means new data. */
  rows: readonly T[];
}

/**
 * Server-side data, free of react-admin: a list controller can pass its page of records and total,
 * and turn `onQueryChange` into the data provider's paging, sort and `q` filter.
 */
export interface ServerTableSource<T> {
  kind: 'server';
  /** The current page, in the server's order. */
  rows: readonly T[];
  /** Undefined until the first answer, so a restored page is not clamped against nothing. */
  total: number | undefined;
  loading: boolean;
  /** Called with the restored query on mount and on every change (search already debounced). */
  onQueryChange: (query: TableQuery) => void;
  /** Where the server streams the whole query as a file; the browser is pointed there. */
  exportUrl?: (format: ExportFormat, query: TableQuery, columnIds: string[]) => string;
  /** For a list with no export route: the whole query's rows (as many as the API gives), written in the browser. */
  exportRows?: (query: TableQuery) => Promise<readonly T[]>;
}

export type TableSource<T> = LocalTableSource<T> | ServerTableSource<T>;

export interface DataTableProps<T extends RowData> {
  /** Key of the persisted controls; unique per table in the product. */
  id: string;
  /** Accessible name of the table. */
  label: string;
  columns: readonly DataTableColumn<T>[];
  source: TableSource<T>;
  getRowId: (row: T) => string;
  /** File name base: `users` exports `users-2026-11-21.csv`. */
  exportName: string;
  /** Extra toolbar actions, after the built-in ones. */
  actions?: ReactNode;
  emptyTitle?: string;
  emptyMessage?: string;
  /** An action in the empty view besides create (clear the filters). */
  emptyAction?: ReactNode;
  createLabel?: string;
  onCreate?: () => void;
  /** SPEC §6: false hides the empty view's create action. */
  canCreate?: boolean;
  /** Order before the user picks one; SPEC §9's `_id` ascending when left out. */
  defaultSort?: TableSort;
  /** data-testid of every body row, for browser tests that look for a row by its content. */
  rowTestId?: string;
}

// Module scope: TanStack wants the feature set stable. Sorting and paging are done before rows
// reach the table (by the server, or by localQuery), so its sorting state only marks headers.
const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature });

/** A data table for local arrays and for server-side data (SPEC §2, §9). */
export function DataTable<T extends RowData>({
  id,
  label,
  columns,
  source,
  getRowId,
  exportName,
  actions,
  emptyTitle,
  emptyMessage,
  emptyAction,
  createLabel,
  onCreate,
  canCreate = true,
  defaultSort,
  rowTestId,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [controls, setControls] = useState<TableControls>(() => loadControls(id, defaultControls(defaultSelectedColumnIds(columns), defaultSort), dynamicColumnIds(columns)));
  const [searchText, setSearchText] = useState(controls.searchQuery);
  const [exporting, setExporting] = useState(false);
  const search = useDebouncedCallback((text: string) => setControls((c) => ({ ...c, searchQuery: text.trim(), page: 1 })), TIMINGS.searchDebounceMs);

  const { perPage, sort, searchQuery, selectedDynamicCols } = controls;
  const shown = useMemo(() => visibleColumns(columns, selectedDynamicCols), [columns, selectedDynamicCols]);
  const localRows = source.kind === 'local' ? source.rows : null;
  const matched = useMemo(() => (localRows ? queryRows(localRows, shown, { sort, searchQuery }) : null), [localRows, shown, sort, searchQuery]);

  const total = matched ? matched.length : source.kind === 'server' ? source.total : undefined;
  const last = lastPage(total ?? 0, perPage);
  const page = total === undefined ? controls.page : clampPage(controls.page, last);
  const query = useMemo<TableQuery>(() => ({ page, perPage, sort, searchQuery }), [page, perPage, sort, searchQuery]);
  const rows = useMemo(() => (matched ? pageOf(matched, page, perPage) : source.rows), [matched, page, perPage, source.rows]);
  const loading = source.kind === 'server' && source.loading;

  useEffect(() => saveControls(id, { ...controls, page }), [id, controls, page]);

  const notifyQuery = useEffectEvent((next: TableQuery) => {
    if (source.kind === 'server') source.onQueryChange(next);
  });
  useEffect(() => notifyQuery(query), [query]);

  const defs = useMemo(
    () =>
      columns.map(
        (c): ColumnDef<typeof features, T> => ({
          id: c.id,
          header: c.header,
          accessorFn: (row) => c.value(row),
          cell: (ctx) => (c.render ? c.render(ctx.row.original) : cellText(c.value(ctx.row.original))),
          enableSorting: c.sortable !== false,
          enableHiding: Boolean(c.dynamic),
        }),
      ),
    [columns],
  );
  const columnVisibility = useMemo(() => Object.fromEntries(columns.filter((c) => c.dynamic).map((c) => [c.id, selectedDynamicCols.includes(c.id)])), [columns, selectedDynamicCols]);
  const sorting = useMemo(() => [{ id: sort.field, desc: sort.order === 'DESC' }], [sort]);
  const table = useTable({
    features,
    columns: defs,
    data: rows as T[],
    getRowId: (row) => getRowId(row),
    state: { sorting, columnVisibility },
    manualSorting: true,
    enableSortingRemoval: false,
  });

  const goTo = (next: number) => setControls((c) => ({ ...c, page: clampPage(next, last) }));
  // A new page size keeps the first row of the current page in view.
  const setPerPage = (next: number) => setControls((c) => ({ ...c, perPage: next, page: Math.floor(((page - 1) * c.perPage) / next) + 1 }));
  const sortBy = (field: string) => setControls((c) => ({ ...c, sort: nextSort(c.sort, field), page: 1 }));
  const toggleColumn = (columnId: string) =>
    setControls((c) => ({
      ...c,
      selectedDynamicCols: c.selectedDynamicCols.includes(columnId) ? c.selectedDynamicCols.filter((x) => x !== columnId) : [...c.selectedDynamicCols, columnId],
    }));

  const exportQuery = async (format: ExportFormat) => {
    const fileName = exportFileName(exportName, format);
    if (source.kind === 'server' && source.exportUrl) {
      downloadLink(
        source.exportUrl(
          format,
          query,
          shown.map((c) => c.id),
        ),
        fileName,
      );
      return;
    }
    setExporting(true);
    try {
      const all = source.kind === 'server' ? await (source.exportRows?.(query) ?? Promise.resolve([])) : (matched ?? []);
      downloadParts(await buildExportParts(all, shown, format), format, fileName);
    } finally {
      setExporting(false);
    }
  };

  if (total === 0 && !searchQuery && !searchText && !loading) {
    return (
      <Paper variant="outlined">
        <EmptyView title={emptyTitle} message={emptyMessage} createLabel={createLabel} onCreate={onCreate} canCreate={canCreate} action={emptyAction} />
      </Paper>
    );
  }

  const dynamicOptions = columns.filter((c) => c.dynamic);
  const visibleCount = table.getVisibleLeafColumns().length;
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, p: 2 }}>
        <TextField
          type="search"
          size="small"
          label={t('widgets.table.search')}
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            search.call(e.target.value);
          }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ flex: '1 1 240px', maxWidth: { sm: 360 } }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: { sm: 'auto' } }}>
          {dynamicOptions.length > 0 && <ColumnChooser options={dynamicOptions} selected={selectedDynamicCols} onToggle={toggleColumn} />}
          {(source.kind === 'local' || source.exportUrl || source.exportRows) && <ExportMenu busy={exporting} disabled={!total} onExport={(format) => void exportQuery(format)} />}
          {actions}
        </Box>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label={t('widgets.table.loading')} />}</Box>
      <TableContainer>
        <Table size="small" aria-label={label} aria-busy={loading || undefined}>
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const align = columns.find((c) => c.id === header.column.id)?.align;
                  return (
                    <TableCell key={header.id} scope="col" align={align} sortDirection={sorted} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                      {header.column.getCanSort() ? (
                        <TableSortLabel active={Boolean(sorted)} direction={sorted || 'asc'} onClick={() => sortBy(header.column.id)}>
                          <table.FlexRender header={header} />
                        </TableSortLabel>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableHead>
          <TableBody>
            {table.getRowModel().rows.map((row) => (
              <TableRow key={row.id} hover data-testid={rowTestId}>
                {row.getVisibleCells().map((cell) => (
                  // One line per row; narrow screens scroll the table sideways instead.
                  <TableCell key={cell.id} align={columns.find((c) => c.id === cell.column.id)?.align} sx={{ whiteSpace: 'nowrap' }}>
                    <table.FlexRender cell={cell} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {rows.length === 0 && !loading && (
              <TableRow>
                <TableCell colSpan={visibleCount} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {t('widgets.table.noMatches')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePager page={page} total={total} last={last} perPage={perPage} disabled={loading} onPage={goTo} onPerPage={setPerPage} />
    </Paper>
  );
}
