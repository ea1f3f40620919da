import AppsIcon from '@mui/icons-material/Apps';
import { AppCreate } from './AppCreate';
import { AppEdit } from './AppEdit';
import { AppList } from './AppList';

/** The dashboard's applications resource (react-admin `apps`). */
export const AppsResource = {
  list: AppList,
  create: AppCreate,
  edit: AppEdit,
  icon: AppsIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
