import ViewListIcon from '@mui/icons-material/ViewList';
import { createElement } from 'react';
import { Route } from 'react-router';
import { lazyView } from '../../src/lazyView';

const PlanGroupEditor = lazyView(() => import('./PlanGroupEditor'), 'PlanGroupEditor');
const PlanGroupList = lazyView(() => import('./PlanGroupList'), 'PlanGroupList');

/** Plan groups (`/admin/plan-groups`, editor at `/admin/plan-groups/{id}/editor`): a company's own plan list. */
export default {
  list: PlanGroupList,
  edit: PlanGroupEditor,
  icon: ViewListIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
  children: createElement(Route, { path: ':id/editor', element: createElement(PlanGroupEditor) }),
};
