import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { AppDto } from '../../domain/schemas';
import { DataTable } from '../../../src/ui/table/DataTable';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { useListSource } from '../useListSource';

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '');

/** Management › Applications: every app the member sees, with its key; global admins add new ones. */
export function AppList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, writable, basePath } = useAnalytics();
  const { source } = useListSource('apps');
  const canCreate = writable && session.member.globalAdmin;
  const create = () => navigate(`${basePath}/apps/create`);
  return (
    <>
      <ScreenHeading titleKey="analytics.apps.title">
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={create}>
            {t('analytics.apps.create')}
          </Button>
        )}
      </ScreenHeading>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
          <DataTable<AppDto>
            id="analytics-apps"
            label={t('analytics.apps.title')}
            columns={[
              {
                id: 'name',
                header: t('analytics.apps.name'),
                value: (a) => a.name,
                render: (a) => (
                  <Link component={RouterLink} to={`${basePath}/apps/${a._id}`}>
                    {a.name}
                  </Link>
                ),
              },
              { id: 'type', header: t('analytics.apps.type'), value: (a) => t(`analytics.apps.types.${a.type}`, { defaultValue: a.type }) },
              { id: 'key', header: t('analytics.apps.appKey'), value: (a) => a.key, render: (a) => <code>{a.key}</code> },
              { id: 'timezone', header: t('analytics.apps.timezone'), value: (a) => a.timezone, dynamic: true, defaultSelected: true },
              { id: 'lastDataAt', header: t('analytics.apps.lastData'), value: (a) => date(a.lastDataAt), dynamic: true, defaultSelected: true },
              { id: 'locked', header: t('analytics.apps.locked'), value: (a) => (a.locked ? t('analytics.yes') : ''), render: (a) => (a.locked ? <Chip size="small" label={t('analytics.apps.locked')} /> : null) },
              { id: 'createdAt', header: t('analytics.apps.created'), value: (a) => date(a.createdAt), dynamic: true },
              { id: '_id', header: t('analytics.apps.appId'), value: (a) => a._id, dynamic: true },
            ]}
            source={source}
            getRowId={(a) => a._id}
            exportName="applications"
            emptyTitle={t('analytics.noApps')}
            emptyMessage={canCreate ? t('analytics.noAppsBody') : t('analytics.noAppsUser')}
            createLabel={t('analytics.apps.create')}
            canCreate={canCreate}
            onCreate={create}
          />
      </Paper>
    </>
  );
}
