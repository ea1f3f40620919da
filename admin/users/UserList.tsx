import Chip from '@mui/material/Chip';
import { useCallback, useMemo } from 'react';
import { useListController, type RaRecord } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../dataProvider/httpClient';
import { PageHeading } from '../../src/ui/PageHeading';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type ServerTableSource } from '../../src/ui/table/DataTable';
import type { ExportFormat } from '../../src/ui/table/exportFile';
import type { TableQuery } from '../../src/ui/table/tableQuery';
import { AdminNav } from '../AdminNav';

interface UserRow extends RaRecord {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  emailVerified: boolean;
  locked: boolean;
  createdAt: string;
}

const RESOURCE = 'admin/users';

/** Admin area: every user, paged, sorted and searched by the server; exports stream from it. */
export function UserList() {
  const { t } = useTranslation();
  const list = useListController<UserRow>({ resource: RESOURCE, perPage: 10, sort: { field: '_id', order: 'ASC' }, disableSyncWithLocation: true });
  const { setPage, setPerPage, setSort, setFilters } = list;

  const columns = useMemo<DataTableColumn<UserRow>[]>(
    () => [
      { id: 'email', header: t('adminUsers.email'), value: (u) => u.email },
      { id: 'firstName', header: t('adminUsers.firstName'), value: (u) => u.firstName },
      { id: 'lastName', header: t('adminUsers.lastName'), value: (u) => u.lastName },
      {
        id: 'status',
        header: t('adminUsers.status'),
        sortable: false,
        value: (u) => (u.locked ? t('adminUsers.locked') : u.emailVerified ? t('adminUsers.verified') : t('adminUsers.unverified')),
        render: (u) => <Chip size="small" color={u.locked ? 'error' : u.emailVerified ? 'success' : 'default'} label={u.locked ? t('adminUsers.locked') : u.emailVerified ? t('adminUsers.verified') : t('adminUsers.unverified')} />,
      },
      { id: 'isAdmin', header: t('adminUsers.isAdmin'), sortable: false, dynamic: true, defaultSelected: true, value: (u) => (u.isAdmin ? t('adminUsers.yes') : '') },
      { id: 'createdAt', header: t('adminUsers.createdAt'), dynamic: true, defaultSelected: true, value: (u) => new Date(u.createdAt).toLocaleString('en-US') },
      { id: '_id', header: t('adminUsers.id'), dynamic: true, value: (u) => u._id },
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
    const params = new URLSearchParams({
      format,
      sort: JSON.stringify([query.sort.field, query.sort.order]),
      filter: JSON.stringify(query.searchQuery ? { q: query.searchQuery } : {}),
    });
    return `${API_BASE}/${RESOURCE}/export?${params}`;
  }, []);

  const source = useMemo<ServerTableSource<UserRow>>(
    () => ({ kind: 'server', rows: list.data ?? [], total: list.total, loading: list.isPending, onQueryChange, exportUrl }),
    [list.data, list.total, list.isPending, onQueryChange, exportUrl],
  );

  return (
    <>
      <AdminNav />
      <PageHeading titleKey="adminUsers.title" />
      <DataTable id="admin-users" label={t('adminUsers.title')} columns={columns} source={source} getRowId={(u) => u._id} exportName="users" canCreate={false} />
    </>
  );
}
