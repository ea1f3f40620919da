import HistoryIcon from '@mui/icons-material/History';
import { lazyView } from '../../src/lazyView';

const LogList = lazyView(() => import('./LogList'), 'LogList');

/** The audit log (`/admin/logs`): read and export only; nobody can edit it. */
export default {
  list: LogList,
  icon: HistoryIcon,
  recordRepresentation: (record: { action?: string }) => record.action ?? '',
};
