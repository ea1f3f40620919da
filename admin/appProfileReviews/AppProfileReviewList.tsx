import Link from '@mui/material/Link';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppProfileReviewRow } from '../../src/domain/tools/schemas';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { AdminList } from '../AdminList';
import { formatDateTime } from '../formatDate';

type ReviewRow = AppProfileReviewRow & { id: string };

/** Admin area: the free app profile review requests, newest first, searched and exported by the server. */
export function AppProfileReviewList() {
  const { t } = useTranslation();
  const columns = useMemo<DataTableColumn<ReviewRow>[]>(() => {
    const f = (field: string) => t(`resources.appProfileReviews.fields.${field}`);
    return [
      { id: 'appName', header: f('appName'), value: (r) => r.appName },
      { id: 'platform', header: f('platform'), value: (r) => r.platform },
      {
        id: 'storeUrl',
        header: f('storeUrl'),
        sortable: false,
        value: (r) => r.storeUrl,
        // Only http(s) addresses are accepted at submission, so the link cannot run script.
        render: (r) => (
          <Link href={r.storeUrl} target="_blank" rel="noopener noreferrer nofollow">
            {r.storeUrl}
          </Link>
        ),
      },
      { id: 'email', header: f('email'), value: (r) => r.email },
      { id: 'createdAt', header: f('createdAt'), value: (r) => formatDateTime(r.createdAt) },
      { id: '_id', header: f('_id'), dynamic: true, value: (r) => r._id },
    ];
  }, [t]);
  return <AdminList name="appProfileReviews" columns={columns} defaultSort={{ field: 'createdAt', order: 'DESC' }} />;
}
