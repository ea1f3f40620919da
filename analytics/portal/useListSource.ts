import { useMemo, useState } from 'react';
import { readListPage, useDashboardPage, type DashboardList } from '../dataProvider/dashboard';
import { APP_SORT, MAX_PER_PAGE, MEMBER_SORT, TOKEN_SORT, type ListQuery } from '../domain/listing';
import type { ServerTableSource } from '../../src/ui/table/DataTable';
import type { TableQuery } from '../../src/ui/table/tableQuery';
import { useAnalytics } from './context';

const SORTABLE: Record<DashboardList, Record<string, unknown>> = { apps: APP_SORT, members: MEMBER_SORT, tokens: TOKEN_SORT };

/** The table's query as the list's route takes it; a column the server cannot sort by keeps the server's order. */
const listQueryOf = (list: DashboardList, q: TableQuery): ListQuery => ({
  page: q.page,
  perPage: Math.min(q.perPage, MAX_PER_PAGE),
  ...(q.sort.field in SORTABLE[list] ? { sort: q.sort.field, order: q.sort.order } : {}),
  ...(q.searchQuery ? { q: q.searchQuery } : {}),
});

/**
 * A management list as a `DataTable` server source: the table's page, sort and search go to the
 * server; an export reads the whole match in pages of the largest size.
 */
export function useListSource<L extends DashboardList>(list: L) {
  const { api } = useAnalytics();
  const [tableQuery, setTableQuery] = useState<TableQuery | null>(null);
  const page = useDashboardPage(api, list, tableQuery ? listQueryOf(list, tableQuery) : null);
  type Row = NonNullable<typeof page.data>['rows'][number];
  const source = useMemo<ServerTableSource<Row>>(
    () => ({
      kind: 'server',
      rows: page.data?.rows ?? [],
      total: page.data?.total,
      loading: page.isPending || page.isPlaceholderData,
      onQueryChange: setTableQuery,
      exportRows: async (q) => {
        return (await readListPage(api, list, { ...listQueryOf(list, q), page: 1, perPage: MAX_PER_PAGE })).rows;
      },
    }),
    [page.data, page.isPending, page.isPlaceholderData, api, list],
  );
  return { source, error: page.error };
}
