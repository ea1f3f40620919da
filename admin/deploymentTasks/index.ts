import AssignmentIcon from '@mui/icons-material/Assignment';
import { lazyView } from '../../src/lazyView';

const TaskList = lazyView(() => import('./TaskList'), 'TaskList');

/** The admin task queue: `/admin/deploymentTasks`; a task's page is the `taskDetail` resource. */
export default {
  list: TaskList,
  icon: AssignmentIcon,
  recordRepresentation: (record: { type?: string }) => record.type ?? '',
};
