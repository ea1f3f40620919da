import Link from '@mui/material/Link';
import { useCallback, useMemo } from 'react';
import { useListController, type RaRecord } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../dataProvider/httpClient';
import type { AppProfileReviewRow } from '../../src/domain/schemas/tools';
import { PageHeading } from '../../src/ui/PageHeading';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type ServerTableSource } from '../../src/ui/table/DataTable';
import type { ExportFormat } from '../../src/ui/table/exportFile';
import type { TableQuery } from '../../src/ui/table/tableQuery';
import { AdminNav } from '../AdminNav';

type ReviewRecord = AppProfileReviewRow & RaRecord;
const RESOURCE = 'admin/appProfileReviews';

/** Admin area: the free app profile review requests, newest first, searched and exported by the server. */
export function AppProfileReviewList() {
  const { t } = useTranslation();
  const list = useListController<ReviewRecord>({ resource: RESOURCE, perPage: 10, sort: { field: 'createdAt', order: 'DESC' }, disableSyncWithLocation: true });
  const { setPage, setPerPage, setSort, setFilters } = list;

  const columns = useMemo<DataTableColumn<ReviewRecord>[]>(
    () => [
      { id: 'appName', header: t('adminReviews.appName'), value: (r) => r.appName },
      { id: 'platform', header: t('adminReviews.platform'), value: (r) => r.platform },
      {
        id: 'storeUrl',
        header: t('adminReviews.storeUrl'),
        sortable: false,
        value: (r) => r.storeUrl,
        // Only http(s) addresses are accepted at submission, so the link cannot run script.
        render: (r) => (
          <Link href={r.storeUrl} target="_blank" rel="noopener noreferrer nofollow">
            {r.storeUrl}
          </Link>
        ),
      },
      { id: 'email', header: t('adminReviews.email'), value: (r) => r.email },
      { id: 'createdAt', header: t('adminReviews.createdAt'), value: (r) => new Date(r.createdAt).toLocaleString('en-US') },
      { id: '_id', header: t('adminReviews.id'), dynamic: true, value: (r) => r._id },
    ],
    [t],
  );

  const onQueryChange = useCallback(
    (query: TableQuery) => {
      setSort(query.sort);
      setPerPage(query.perPage);
      setPage(query.page);
      setFilters(query.searchQuery ? { q: query.searchQuery } : {}, {});
    },
    [setPage, setPerPage, setSort, setFilters],
  );

  const exportUrl = useCallback((format: ExportFormat, query: TableQuery) => {
    const params = new URLSearchParams({ format, sort: JSON.stringify([query.sort.field, query.sort.order]), filter: JSON.stringify(query.searchQuery ? { q: query.searchQuery } : {}) });
    return `${API_BASE}/${RESOURCE}/export?${params}`;
  }, []);

  const source = useMemo<ServerTableSource<ReviewRecord>>(
    () => ({ kind: 'server', rows: list.data ?? [], total: list.total, loading: list.isPending, onQueryChange, exportUrl }),
    [list.data, list.total, list.isPending, onQueryChange, exportUrl],
  );

  return (
    <>
      <AdminNav />
      <PageHeading titleKey="adminReviews.title" />
      <DataTable id="admin-app-reviews" label={t('adminReviews.title')} columns={columns} source={source} getRowId={(r) => r._id} exportName="app-reviews" canCreate={false} />
    </>
  );
}
