import ScheduleIcon from '@mui/icons-material/Schedule';
import { lazyView } from '../../src/lazyView';

const JobList = lazyView(() => import('./JobList'), 'JobList');

/** The admin jobs resource (`/admin/jobs`): the worker's queues and schedules; run now, pause, resume. */
export default {
  list: JobList,
  icon: ScheduleIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
};
