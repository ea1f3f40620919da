import PeopleIcon from '@mui/icons-material/People';
import { lazyView } from '../../src/lazyView';

const UserEdit = lazyView(() => import('./UserEdit'), 'UserEdit');
const UserList = lazyView(() => import('./UserList'), 'UserList');

/** The admin users resource: `/admin/users` and a user's page `/admin/users/{id}` (data from `/api/v1/admin/users`). */
export default {
  list: UserList,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (record: { email?: string }) => record.email ?? '',
};
