import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { QueryFailure } from '../../../src/ui/QueryFailure';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';
import { ScreenHeading } from '../ScreenHeading';
import { MemberFields, type MemberState } from './MemberFields';
import { listsOf, needsApp } from './roles';
import { useDashboardMutation, useDashboardQuery } from '../../dataProvider/dashboard';
import type { MemberCreate as MemberBody } from '../../dataProvider/dashboard';

/** Add user: a member of the company that owns the server, with their rights. */
export function MemberCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { api, basePath } = useAnalytics();
  const candidates = useDashboardQuery(api, ['listMemberCandidates'], (a) => a.listMemberCandidates());
  const [userId, setUserId] = useState('');
  const [state, setState] = useState<MemberState>({ globalAdmin: false, locked: false, bannedUntil: '', roles: {} });
  const [tried, setTried] = useState(false);
  const { run, failure, submitting: saving } = useFormSubmit();
  const add = useDashboardMutation(api, (a, body: MemberBody) => a.addMember(body));
  const missing = needsApp(state.globalAdmin, state.roles);

  const save = async () => {
    setTried(true);
    if (missing || !userId) return;
    if (!(await run(() => add.mutateAsync({ userId, globalAdmin: state.globalAdmin, locked: state.locked, bannedUntil: state.bannedUntil ? new Date(state.bannedUntil).toISOString() : null, ...listsOf(state.roles) })))) return;
    showToast({ text: t('analytics.saved'), variant: 'successful' });
    navigate(`${basePath}/members`);
  };

  return (
    <>
      <ScreenHeading titleKey="analytics.members.create" />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 640 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('analytics.members.passwordNote')}
        </Typography>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        <QueryFailure error={candidates.error} sx={{ mb: 2 }} />
        <Stack spacing={2}>
          <TextField select required label={t('analytics.members.candidate')} value={userId} onChange={(e) => setUserId(e.target.value)} error={tried && !userId}>
            {(candidates.data ?? []).map((c) => (
              <MenuItem key={c.userId} value={c.userId}>
                {c.fullName} · {c.email}
              </MenuItem>
            ))}
          </TextField>
          <MemberFields value={state} onChange={setState} tried={tried} needsApp={missing} />
          <Button variant="contained" onClick={() => void save()} loading={saving} sx={{ alignSelf: 'flex-start' }}>
            {t('analytics.members.create')}
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
