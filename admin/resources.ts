import type { ResourceProps } from 'react-admin';
import appProfileReviews from './appProfileReviews';
import companies from './companies';
import deployments from './deployments';
import deploymentTasks from './deploymentTasks';
import jobs from './jobs';
import logs from './logs';
import planGroups from './plan-groups';
import taskDetail from './taskDetail';
import users from './users';

/** An admin resource: its name (path `/admin/<name>`, API `/api/v1/admin/<name>`, i18n `resources.<name>`) and views. */
export interface AdminResource extends Omit<ResourceProps, 'name'> {
  name: string;
}

/**
 * The admin area, in tab order (SPEC §2 admin routes). This one list drives the `<Resource>`s of
 * the app, the admin tabs and the i18n names; a new resource is a folder and a line here.
 */
export const ADMIN_RESOURCES: AdminResource[] = [
  { name: 'companies', ...companies },
  { name: 'users', ...users },
  { name: 'deployments', ...deployments },
  { name: 'deploymentTasks', ...deploymentTasks },
  { name: 'taskDetail', ...taskDetail },
  { name: 'jobs', ...jobs },
  { name: 'logs', ...logs },
  { name: 'plan-groups', ...planGroups },
  { name: 'appProfileReviews', ...appProfileReviews },
];
