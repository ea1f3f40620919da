import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { MemberDto } from '../../domain/schemas';
import { DataTable } from '../../../src/ui/table/DataTable';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { roleOf } from './roles';
import { useListSource } from '../useListSource';
import { QueryFailure } from '../../../src/ui/QueryFailure';

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '');
type Row = MemberDto;

/** Management › Users (global admins): who reaches this dashboard, with their role and state. */
export function MemberList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { writable, basePath, apps } = useAnalytics();
  const { source, error } = useListSource('members');
  const appName = (id: string) => apps.find((a) => a._id === id)?.name ?? id;
  return (
    <>
      <ScreenHeading titleKey="analytics.members.title">
        {writable && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate(`${basePath}/members/create`)}>
            {t('analytics.members.create')}
          </Button>
        )}
      </ScreenHeading>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <QueryFailure error={error} />
          <DataTable<Row>
            id="analytics-members"
            label={t('analytics.members.title')}
            columns={[
              {
                id: 'fullName',
                header: t('analytics.members.fullName'),
                value: (m) => m.fullName,
                render: (m) => (
                  <Link component={RouterLink} to={`${basePath}/members/${m._id}`}>
                    {m.fullName}
                  </Link>
                ),
              },
              { id: 'username', header: t('analytics.members.username'), value: (m) => m.username },
              { id: 'email', header: t('analytics.members.email'), value: (m) => m.email, dynamic: true, defaultSelected: true },
              { id: 'role', header: t('analytics.members.role'), value: (m) => t(`analytics.members.roles.${roleOf(m)}`) },
              { id: 'apps', header: t('analytics.members.adminOf'), sortable: false, value: (m) => m.adminOf.map(appName).join(', '), dynamic: true },
              { id: 'locked', header: t('analytics.members.locked'), value: (m) => (m.locked ? t('analytics.yes') : ''), render: (m) => (m.locked ? <Chip size="small" color="warning" label={t('analytics.members.locked')} /> : null) },
              { id: 'bannedUntil', header: t('analytics.members.bannedUntil'), value: (m) => date(m.bannedUntil), dynamic: true },
              { id: 'lastLoginAt', header: t('analytics.members.lastLogin'), value: (m) => date(m.lastLoginAt), dynamic: true, defaultSelected: true },
              { id: 'createdAt', header: t('analytics.members.created'), value: (m) => date(m.createdAt), dynamic: true },
            ]}
            source={source}
            getRowId={(m) => m._id}
            exportName="dashboard-users"
            canCreate={false}
          />
      </Paper>
    </>
  );
}
