import ViewListIcon from '@mui/icons-material/ViewList';
import { createElement } from 'react';
import { Route } from 'react-router';
import { PlanGroupEditor } from './PlanGroupEditor';
import { PlanGroupList } from './PlanGroupList';

/** Plan groups (`/admin/plan-groups`, editor at `/admin/plan-groups/{id}/editor`): a company's own plan list. */
export default {
  list: PlanGroupList,
  edit: PlanGroupEditor,
  icon: ViewListIcon,
  recordRepresentation: (record: { name?: string }) => record.name ?? '',
  children: createElement(Route, { path: ':id/editor', element: createElement(PlanGroupEditor) }),
};
