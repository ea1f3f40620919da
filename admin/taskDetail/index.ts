import AssignmentIcon from '@mui/icons-material/Assignment';
import { lazyView } from '../../src/lazyView';

const TaskDetail = lazyView(() => import('./TaskDetail'), 'TaskDetail');

/** A task's page, `/admin/taskDetail/{id}` (SPEC §2 admin routes); its data is `/api/v1/admin/deploymentTasks/{id}`. No list, so no tab. */
export default {
  edit: TaskDetail,
  icon: AssignmentIcon,
  recordRepresentation: (record: { type?: string }) => record.type ?? '',
};
