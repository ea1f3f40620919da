import CancelScheduleSend from '@mui/icons-material/CancelScheduleSend';
import PersonRemove from '@mui/icons-material/PersonRemove';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useCancelInvitation, useRemoveMember } from '../../dataProvider/companies/queries';
import type { CompanyRole } from '../../src/domain/companies/schemas';
import type { CompanyDto, TeamDto } from '../../src/domain/companies/answers';
import { useSession } from '../../src/session';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable, type LocalTableSource } from '../../src/ui/table/DataTable';
import { showToast } from '../../src/ui/toast/toastStore';
import { InviteForm } from './InviteForm';
import '../../src/managementI18n';

type Member = TeamDto['users'][number];
type Invitation = TeamDto['invitations'][number];

const sentDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const fullName = (m: Member) => `${m.firstName} ${m.lastName}`.trim();

type Status = Member['status'] | Invitation['status'];
const STATUS_COLOR: Record<Status, 'success' | 'warning' | 'default'> = { active: 'success', pending: 'warning', expired: 'default' };

/** The role and status columns members and invitations share. */
function roleAndStatusColumns<T extends { role: CompanyRole; status: Status }>(t: TFunction): DataTableColumn<T>[] {
  return [
    {
      id: 'role',
      header: t('management.team.role'),
      value: (r) => t(`management.roles.${r.role}`),
      render: (r) => <Chip size="small" variant="outlined" color={r.role === 'admin' ? 'primary' : 'default'} label={t(`management.roles.${r.role}`)} />,
    },
    {
      id: 'status',
      header: t('management.team.status'),
      value: (r) => t(`management.team.statuses.${r.status}`),
      render: (r) => <Chip size="small" color={STATUS_COLOR[r.status]} label={t(`management.team.statuses.${r.status}`)} />,
    },
  ];
}

interface Props {
  company: CompanyDto;
  team: TeamDto;
  /** Loads the team again after a change. */
  reload: () => Promise<void>;
}

/** Management › Team: members and open invitations; admins invite, remove and cancel. */
export function TeamSettings({ company, team, reload }: Props) {
  const { t } = useTranslation();
  const me = useSession().user?._id;
  const canEdit = company.role === 'admin';
  // Each write reads the team again (the mutation's invalidation); a failure is a toast.
  const { mutateAsync: removeMember } = useRemoveMember(company._id);
  const { mutateAsync: cancelInvitation } = useCancelInvitation(company._id);
  const { run } = useFormSubmit({ report: 'toast' });

  const members = useMemo<LocalTableSource<Member>>(() => ({ kind: 'local', rows: team.users }), [team.users]);
  const invitations = useMemo<LocalTableSource<Invitation>>(() => ({ kind: 'local', rows: team.invitations }), [team.invitations]);

  const memberColumns = useMemo<DataTableColumn<Member>[]>(() => {
    const remove = async (m: Member) => {
      const name = fullName(m);
      const ok = await confirm({
        type: 'danger',
        title: t('management.team.removeTitle', { name }),
        message: t('management.team.removeMessage', { name, company: company.name }),
        labels: { confirm: t('management.team.removeConfirm') },
      });
      if (!ok) return;
      if (await run(() => removeMember(m._id))) showToast({ text: t('management.team.removed', { name }), variant: 'successful' });
    };
    const columns: DataTableColumn<Member>[] = [
      {
        id: 'name',
        header: t('management.team.name'),
        value: fullName,
        render: (m) => (m._id === me ? `${fullName(m)} ${t('management.team.you')}` : fullName(m)),
      },
      { id: 'email', header: t('management.team.email'), value: (m) => m.email },
      ...roleAndStatusColumns<Member>(t),
    ];
    if (!canEdit) return columns;
    return [
      ...columns,
      {
        id: 'actions',
        header: t('management.team.actions'),
        sortable: false,
        exportable: false,
        align: 'right',
        value: () => '',
        // Leaving is not offered here: the last admin cannot, and others would lose the page at once.
        render: (m) =>
          m._id === me ? null : (
            <Tooltip title={t('management.team.remove', { name: fullName(m) })}>
              <IconButton size="small" color="error" aria-label={t('management.team.remove', { name: fullName(m) })} onClick={() => void remove(m)}>
                <PersonRemove fontSize="small" />
              </IconButton>
            </Tooltip>
          ),
      },
    ];
  }, [t, me, canEdit, company.name, run, removeMember]);

  const invitationColumns = useMemo<DataTableColumn<Invitation>[]>(() => {
    const cancel = async (i: Invitation) => {
      const ok = await confirm({
        type: 'danger',
        title: t('management.team.cancelTitle'),
        message: t('management.team.cancelMessage', { email: i.email }),
        labels: { confirm: t('management.team.cancelConfirm'), cancel: t('management.team.keep') },
      });
      if (!ok) return;
      if (await run(() => cancelInvitation(i._id))) showToast({ text: t('management.team.cancelled', { email: i.email }), variant: 'successful' });
    };
    const columns: DataTableColumn<Invitation>[] = [
      { id: 'email', header: t('management.team.email'), value: (i) => i.email },
      ...roleAndStatusColumns<Invitation>(t),
      { id: 'createdAt', header: t('management.team.sentAt'), value: (i) => new Date(i.createdAt), render: (i) => sentDate.format(new Date(i.createdAt)) },
    ];
    if (!canEdit) return columns;
    return [
      ...columns,
      {
        id: 'actions',
        header: t('management.team.actions'),
        sortable: false,
        exportable: false,
        align: 'right',
        value: () => '',
        render: (i) => (
          <Tooltip title={t('management.team.cancelInvitation', { email: i.email })}>
            <IconButton size="small" color="error" aria-label={t('management.team.cancelInvitation', { email: i.email })} onClick={() => void cancel(i)}>
              <CancelScheduleSend fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
      },
    ];
  }, [t, canEdit, run, cancelInvitation]);

  return (
    <Stack spacing={3}>
      {canEdit ? <InviteForm company={company} onInvited={() => void reload()} /> : <Alert severity="info">{t('management.viewerNotice')}</Alert>}
      <Stack component="section" spacing={1.5} aria-labelledby="team-members-title">
        <Typography id="team-members-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          {t('management.team.members')}
        </Typography>
        <DataTable id="management-team-members" label={t('management.team.members')} columns={memberColumns} source={members} getRowId={(m) => m._id} exportName="team" canCreate={false} defaultSort={{ field: 'name', order: 'ASC' }} />
      </Stack>
      <Stack component="section" spacing={1.5} aria-labelledby="team-invitations-title">
        <Typography id="team-invitations-title" variant="h2" sx={{ fontSize: '1.25rem' }}>
          {t('management.team.invitations')}
        </Typography>
        <DataTable
          id="management-team-invitations"
          label={t('management.team.invitations')}
          columns={invitationColumns}
          source={invitations}
          getRowId={(i) => i._id}
          exportName="invitations"
          defaultSort={{ field: 'createdAt', order: 'DESC' }}
          emptyTitle={t('management.team.noInvitations')}
          emptyMessage={t('management.team.noInvitationsMessage')}
          canCreate={false}
        />
      </Stack>
    </Stack>
  );
}
