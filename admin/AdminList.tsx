import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, type ReactNode } from 'react';
import { useListController, type RaRecord } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { adminMethods } from '../dataProvider/dataProvider';
import { PageHeading } from '../src/ui/PageHeading';
import type { DataTableColumn } from '../src/ui/table/columns';
import { DataTable, type ServerTableSource } from '../src/ui/table/DataTable';
import type { ExportFormat } from '../src/ui/table/exportFile';
import type { TableQuery, TableSort } from '../src/ui/table/tableQuery';
import { AdminNav } from './AdminNav';
import './adminI18n';

export interface AdminListProps<T extends RaRecord> {
  /** The resource's name in `resources.ts` (`/admin/<name>`, `resources.<name>.*`). */
  name: string;
  columns: readonly DataTableColumn<T>[];
  /** The resource's own filters (besides the search), sent with every page and export. */
  filter?: Record<string, unknown>;
  /** A filter bar above the table. */
  filters?: ReactNode;
  /** Toolbar actions after the table's own (a create button). */
  actions?: ReactNode;
  defaultSort?: TableSort;
  /** Resets the filter bar: offered when the filters leave the list empty. */
  onClearFilters?: () => void;
}

/** A cell linking to a record's page (`/admin/<name>/<id>`): how a list row opens. */
export function RecordLink({ name, id, children }: { name: string; id: string; children: ReactNode }) {
  return (
    <Link component={RouterLink} to={`/admin/${name}/${encodeURIComponent(id)}`}>
      {children}
    </Link>
  );
}

/**
 * The one admin list: the `src/ui` DataTable (search, column chooser, export, page size, pager,
 * 'Showing _START_ to _END_ of _TOTAL_') over react-admin's list controller, so paging, sorting
 * and searching are the server's, and the export streams the same query from the server.
 */
export function AdminList<T extends RaRecord>({ name, columns, filter, filters, actions, defaultSort, onClearFilters }: AdminListProps<T>) {
  const { t } = useTranslation();
  const resource = `admin/${name}`;
  const list = useListController<T>({ resource, perPage: 10, sort: defaultSort ?? { field: '_id', order: 'ASC' }, disableSyncWithLocation: true });
  const { setPage, setPerPage, setSort, setFilters, sort: currentSort, perPage: currentPerPage, page: currentPage, filterValues } = list;
  const search = useRef('');
  // Keyed by content, so a filter object made anew on each render changes nothing.
  const extraKey = JSON.stringify(Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => v !== undefined && v !== '')));
  const extra = useMemo(() => JSON.parse(extraKey) as Record<string, unknown>, [extraKey]);

  const onQueryChange = useCallback(
    (query: TableQuery) => {
      search.current = query.searchQuery;
      // Only what changed: react-admin sends a new sort, page size or filter back to page 1, so
      // re-sending them with a page change would undo it. The table's page goes last.
      const filters = { ...extra, ...(query.searchQuery ? { q: query.searchQuery } : {}) };
      if (currentSort.field !== query.sort.field || currentSort.order !== query.sort.order) setSort(query.sort);
      if (currentPerPage !== query.perPage) setPerPage(query.perPage);
      if (JSON.stringify(filterValues) !== JSON.stringify(filters)) setFilters(filters, {});
      if (currentPage !== query.page) setPage(query.page);
    },
    [setPage, setPerPage, setSort, setFilters, extra, currentSort, currentPerPage, currentPage, filterValues],
  );

  // A changed filter bar asks again, keeping the search and the table's page (the table owns the
  // page and clamps it to the new total). Only on a change of the filters: react-admin makes a new
  // setFilters at every page change, and its filter change goes back to page 1.
  const applyFilters = useEffectEvent(() => {
    setFilters({ ...extra, ...(search.current ? { q: search.current } : {}) }, {});
    setPage(currentPage);
  });
  useEffect(() => applyFilters(), [extra]);

  const exportUrl = useCallback(
    // Straight from the data provider module: react-admin's useDataProvider proxy expects promises.
    (format: ExportFormat, query: TableQuery) => adminMethods.exportUrl(resource, { format, sort: query.sort, filter: { ...extra, ...(query.searchQuery ? { q: query.searchQuery } : {}) } }),
    [resource, extra],
  );

  const source = useMemo<ServerTableSource<T>>(
    () => ({ kind: 'server', rows: list.data ?? [], total: list.total, loading: list.isPending, onQueryChange, exportUrl }),
    [list.data, list.total, list.isPending, onQueryChange, exportUrl],
  );

  const title = t(`resources.${name}.name`);
  // Filters that leave nothing say so, rather than that there is nothing at all.
  const filtered = extraKey !== '{}';
  return (
    <>
      <AdminNav />
      <PageHeading title={title} />
      {filters}
      <DataTable
        id={`admin-${name}`}
        label={title}
        columns={columns}
        source={source}
        getRowId={(r) => String(r.id)}
        exportName={name}
        actions={actions}
        canCreate={false}
        emptyTitle={filtered ? t(`resources.${name}.emptyFiltered`, { defaultValue: t('admin.emptyFiltered') }) : undefined}
        emptyMessage={filtered ? t('admin.emptyFilteredHint') : t(`resources.${name}.empty`)}
        emptyAction={
          filtered && onClearFilters ? (
            <Button variant="outlined" onClick={onClearFilters} sx={{ mt: 1 }}>
              {t('admin.clearFilters')}
            </Button>
          ) : undefined
        }
        defaultSort={defaultSort}
      />
    </>
  );
}
