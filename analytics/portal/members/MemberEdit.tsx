import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';
import type { MemberDto, MemberUpdate } from '../../domain/schemas';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { MemberFields, type MemberState } from './MemberFields';
import { listsOf, needsApp, rolesByApp } from './roles';

const toInput = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DDTHH:mm') : '');

/** One dashboard user: their rights (the last global admin stays one: the server refuses) and removal. */
export function MemberEdit() {
  const { id = '' } = useParams();
  const { api } = useAnalytics();
  const { data: member, error } = useDashboardQuery(api, ['member', id], (a) => a.getMember(id));
  if (!member) return <QueryFailure error={error} />;
  return <MemberEditForm key={member._id} member={member} />;
}

function MemberEditForm({ member }: { member: MemberDto }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { api, basePath, writable } = useAnalytics();
  const [state, setState] = useState<MemberState>({ globalAdmin: member.globalAdmin, locked: member.locked, bannedUntil: toInput(member.bannedUntil), roles: rolesByApp(member) });
  const [tried, setTried] = useState(false);
  const { run, failure, submitting: saving } = useFormSubmit();
  const update = useDashboardMutation(api, (a, body: MemberUpdate) => a.updateMember(member._id, body));
  const removal = useDashboardMutation<undefined, null>(api, (a) => a.removeMember(member._id));
  const missing = needsApp(state.globalAdmin, state.roles);

  const save = async () => {
    setTried(true);
    if (missing) return;
    if (!(await run(() => update.mutateAsync({ globalAdmin: state.globalAdmin, locked: state.locked, bannedUntil: state.bannedUntil ? new Date(state.bannedUntil).toISOString() : null, ...listsOf(state.roles) })))) return;
    showToast({ text: t('analytics.saved'), variant: 'successful' });
    navigate(`${basePath}/members`);
  };
  const remove = async () => {
    if (!(await confirm({ type: 'danger', title: t('analytics.members.removeTitle'), message: t('analytics.members.removeBody', { name: member.fullName }), labels: { confirm: t('analytics.delete') } }))) return;
    if (!(await run(() => removal.mutateAsync(undefined)))) return;
    showToast({ text: t('analytics.members.removed'), variant: 'successful' });
    navigate(`${basePath}/members`);
  };

  return (
    <>
      <ScreenHeading titleKey="analytics.members.editTitle" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Typography variant="h2" component="p">
          {member.fullName}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {member.username} · {member.email}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('analytics.members.passwordNote')}
        </Typography>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        <MemberFields value={state} onChange={setState} tried={tried} needsApp={missing} />
        {writable && (
          <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
            <Button variant="contained" onClick={() => void save()} loading={saving}>
              {t('analytics.save')}
            </Button>
            <Button color="error" onClick={() => void remove()}>
              {t('analytics.delete')}
            </Button>
          </Stack>
        )}
      </Paper>
    </>
  );
}
