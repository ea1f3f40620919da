import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useDelete, useGetOne, useNotify, useUpdate } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { AdminUserDetail } from '../../src/domain/admin/schemas';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { formatDateTime } from '../formatDate';
import { RecordHeader } from '../RecordHeader';
import { SectionTable } from '../SectionTable';
import { useRecordAction } from '../useRecordAction';
import { UserStatus } from './UserStatus';
// The members' roles are management's strings; that bundle loads with the management screens.
import '../../src/managementI18n';

type UserRecord = AdminUserDetail & { id: string };
const RESOURCE = 'admin/users';

/** A user's page (`/admin/users/{id}`): companies, sessions, sign-in history and the support actions. */
export function UserEdit() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const notify = useNotify();
  const navigate = useNavigate();
  const { data: user, refetch, isPending } = useGetOne<UserRecord>(RESOURCE, { id });
  const action = useRecordAction<UserRecord>('users', (_data, name) => {
    notify(t(`resources.users.done.${name}`), { type: 'success' });
    void refetch();
  });
  const [update, { isPending: updating }] = useUpdate<UserRecord>();
  const [remove, { isPending: deleting }] = useDelete<UserRecord>();
  const busy = action.isPending || updating || deleting;

  // react-admin shows the list's row while the page loads: wait for the page's own fields.
  if (isPending || !user?.sessions) return <LinearProgress aria-label={t('admin.loading')} />;

  const setAdmin = (isAdmin: boolean) =>
    update(
      RESOURCE,
      { id, data: { isAdmin }, previousData: user },
      { mutationMode: 'pessimistic', onSuccess: () => (notify(t('resources.users.done.admin'), { type: 'success' }), void refetch()), onError: (e) => notify((e as Error).message, { type: 'error' }) },
    );
  const deleteUser = async () => {
    if (!(await confirm({ title: t('resources.users.actions.delete'), message: t('resources.users.confirmDelete', { email: user.email }), type: 'danger' }))) return;
    remove(
      RESOURCE,
      { id, previousData: user },
      { mutationMode: 'pessimistic', onSuccess: () => (notify(t('resources.users.done.delete'), { type: 'success' }), void navigate('/admin/users')), onError: (e) => notify((e as Error).message, { type: 'error' }) },
    );
  };
  const run = (name: string) => action.mutate({ id, action: name });
  const f = (field: string) => t(`resources.users.fields.${field}`);

  return (
    <>
      <RecordHeader name="users" title={user.email} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <UserStatus user={user} />
        {user.isAdmin && <Chip size="small" color="success" variant="outlined" label={f('isAdmin')} />}
      </Box>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: 0.5, mb: 3, '& dt': { color: 'text.secondary' }, '& dd': { m: 0, mb: { xs: 1, sm: 0 } } }}>
        <dt>{t('resources.users.fields.firstName')}</dt>
        <dd>{`${user.firstName} ${user.lastName}`}</dd>
        <dt>{f('createdAt')}</dt>
        <dd>{formatDateTime(user.createdAt)}</dd>
        <dt>{f('via')}</dt>
        <dd>{user.via}</dd>
        <dt>{f('mfaEnabled')}</dt>
        <dd>{user.mfaEnabled ? t('admin.yes') : t('admin.no')}</dd>
        <dt>{f('_id')}</dt>
        <dd style={{ overflowWrap: 'anywhere' }}>{user._id}</dd>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
        <Button variant="outlined" disabled={busy} onClick={() => run(user.locked ? 'unlock' : 'lock')} color={user.locked ? 'primary' : 'warning'}>
          {t(`resources.users.actions.${user.locked ? 'unlock' : 'lock'}`)}
        </Button>
        <Button variant="outlined" disabled={busy} onClick={() => run('end-sessions')}>
          {t('resources.users.actions.end-sessions')}
        </Button>
        {!user.emailVerified && (
          <Button variant="outlined" disabled={busy} onClick={() => run('resend-verification')}>
            {t('resources.users.actions.resend-verification')}
          </Button>
        )}
        <Button variant="outlined" disabled={busy} onClick={() => setAdmin(!user.isAdmin)}>
          {t(`resources.users.actions.${user.isAdmin ? 'revokeAdmin' : 'grantAdmin'}`)}
        </Button>
        <Button variant="outlined" color="error" disabled={busy} onClick={() => void deleteUser()}>
          {t('resources.users.actions.delete')}
        </Button>
      </Box>
      <SectionTable
        title={t('resources.users.companies')}
        rows={user.companies}
        getRowId={(c) => c._id}
        empty={t('resources.users.noCompanies')}
        columns={[
          { header: t('resources.companies.fields.name'), cell: (c) => <Link component={RouterLink} to={`/admin/companies/${c._id}`}>{c.name}</Link> },
          { header: t('resources.companies.role'), cell: (c) => t(`management.roles.${c.role}`) },
        ]}
      />
      <SectionTable
        title={t('resources.users.sessions')}
        rows={user.sessions}
        getRowId={(s) => s._id}
        empty={t('resources.users.noSessions')}
        columns={[
          { header: t('resources.users.started'), cell: (s) => formatDateTime(s.createdAt) },
          { header: t('resources.users.lastSeen'), cell: (s) => formatDateTime(s.lastSeenAt) },
          { header: t('resources.users.ip'), cell: (s) => s.ip ?? '' },
          { header: t('resources.users.device'), cell: (s) => <Typography variant="body2" noWrap sx={{ maxWidth: 360 }}>{s.userAgent ?? ''}</Typography> },
        ]}
      />
      <SectionTable
        title={t('resources.users.signIns')}
        rows={user.signIns}
        getRowId={(s) => s._id}
        empty={t('resources.users.noSignIns')}
        columns={[
          { header: t('resources.logs.fields.at'), cell: (s) => formatDateTime(s.at) },
          { header: t('resources.users.outcome'), cell: (s) => (s.ok ? t('resources.users.succeeded') : t('resources.users.failed')) },
          { header: t('resources.users.ip'), cell: (s) => s.ip ?? '' },
        ]}
      />
    </>
  );
}
