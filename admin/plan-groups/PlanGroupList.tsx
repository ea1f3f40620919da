import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PlanGroupRow } from '../../src/domain/admin/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList } from '../AdminList';
import { formatDateTime } from '../formatDate';
import { PlanGroupCreate } from './PlanGroupCreate';

type GroupRow = PlanGroupRow & { id: string };

/** Plan groups, each opening its editor. */
export function PlanGroupList() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<GroupRow>[]>(() => {
    const f = (field: string) => t(`resources.plan-groups.fields.${field}`);
    return [
      {
        id: 'name',
        header: f('name'),
        value: (g) => g.name,
        render: (g) => (
          <Link component={RouterLink} to={`/admin/plan-groups/${g._id}/editor`}>
            {g.name}
          </Link>
        ),
      },
      { id: 'description', header: f('description'), sortable: false, value: (g) => g.description },
      { id: 'plans', header: f('plans'), sortable: false, align: 'right', value: (g) => g.plans },
      { id: 'companies', header: f('companies'), sortable: false, align: 'right', value: (g) => g.companies },
      { id: 'createdAt', header: f('createdAt'), dynamic: true, defaultSelected: true, value: (g) => formatDateTime(g.createdAt) },
      { id: '_id', header: f('_id'), dynamic: true, value: (g) => g._id },
    ];
  }, [t]);
  // Above the table rather than in its toolbar: an empty list shows no toolbar.
  const create = (
    <Box sx={{ mb: 2 }}>
      <PlanGroupCreate />
    </Box>
  );
  return <AdminList name="plan-groups" columns={columns} filters={create} />;
}
