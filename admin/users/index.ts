import PeopleIcon from '@mui/icons-material/People';
import { UserList } from './UserList';

/** The admin users resource (`/admin/users`, data from `/api/v1/admin/users`). */
export default {
  list: UserList,
  icon: PeopleIcon,
  recordRepresentation: (record: { email?: string }) => record.email ?? '',
};
