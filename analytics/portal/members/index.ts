import PeopleIcon from '@mui/icons-material/People';
import { MemberCreate } from './MemberCreate';
import { MemberEdit } from './MemberEdit';
import { MemberList } from './MemberList';

/** The dashboard's users resource (react-admin `members`; global admins only). */
export const MembersResource = {
  list: MemberList,
  create: MemberCreate,
  edit: MemberEdit,
  icon: PeopleIcon,
  recordRepresentation: (record: { fullName?: string }) => record.fullName ?? '',
};
