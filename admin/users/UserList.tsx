import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUserRow } from '../../src/domain/admin/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList, RecordLink } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { UserStatus, userStatusKey } from './UserStatus';

type UserRow = AdminUserRow & { id: string };

/** Admin area: every user, paged, sorted and searched by the server; exports stream from it. */
export function UserList() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<UserRow>[]>(() => {
    const f = (field: string) => t(`resources.users.fields.${field}`);
    return [
      { id: 'email', header: f('email'), value: (u) => u.email, render: (u) => <RecordLink name="users" id={u._id}>{u.email}</RecordLink> },
      { id: 'firstName', header: f('firstName'), value: (u) => u.firstName },
      { id: 'lastName', header: f('lastName'), value: (u) => u.lastName },
      { id: 'status', header: f('status'), sortable: false, value: (u) => t(userStatusKey(u)), render: (u) => <UserStatus user={u} /> },
      { id: 'isAdmin', header: f('isAdmin'), sortable: false, dynamic: true, defaultSelected: true, value: (u) => (u.isAdmin ? t('admin.yes') : '') },
      { id: 'createdAt', header: f('createdAt'), dynamic: true, defaultSelected: true, value: (u) => formatDateTime(u.createdAt) },
      { id: '_id', header: f('_id'), dynamic: true, value: (u) => u._id },
    ];
  }, [t]);
  return <AdminList name="users" columns={columns} />;
}
