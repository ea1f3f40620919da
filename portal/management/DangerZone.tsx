import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeleteCompany, useRequestDeletionCode } from '../../dataProvider/companies/queries';
import type { CompanyDto } from '../../src/domain/companies/answers';
import { session, useSession } from '../../src/session';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { CodeInput } from '../../src/ui/misc/CodeInput';
import { showToast } from '../../src/ui/toast/toastStore';
import '../../src/managementI18n';

/**
 * Deleting a company (admins): confirm, the API mails a 5-digit code, the code is typed into the
 * 5-cell input (SPEC §5), which submits once full.
 */
export function DangerZone({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const email = useSession().user?.email ?? '';
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'sending' | 'deleting' | null>(null);
  const { run, failure: error, setFailure: setError } = useFormSubmit();
  const requestCode = useRequestDeletionCode(company._id);
  const deleteCompany = useDeleteCompany(company._id);
  const [notice, setNotice] = useState<string | null>(null);
  // A new key gives the code input fresh, empty cells after a wrong code.
  const [attempt, setAttempt] = useState(0);

  const sendCode = async (): Promise<boolean> => {
    setBusy('sending');
    const sent = await run(() => requestCode.mutateAsync(null));
    setBusy(null);
    return sent;
  };

  const start = async () => {
    const ok = await confirm({
      type: 'danger',
      title: t('management.deletion.confirmTitle', { name: company.name }),
      message: t('management.deletion.confirmMessage', { email }),
      labels: { confirm: t('management.deletion.sendCode') },
    });
    if (!ok) return;
    setError(null);
    setNotice(null);
    setAttempt((n) => n + 1);
    setOpen(true);
    await sendCode();
  };

  const resend = async () => {
    setError(null);
    setNotice(null);
    setAttempt((n) => n + 1);
    if (await sendCode()) setNotice(t('management.deletion.resent'));
  };

  const submit = async (code: string) => {
    setBusy('deleting');
    setError(null);
    setNotice(null);
    if (!(await run(() => deleteCompany.mutateAsync(code)))) {
      setAttempt((n) => n + 1);
      setBusy(null);
      return;
    }
    showToast({ text: t('management.deletion.deleted', { name: company.name }), variant: 'successful' });
    // The fresh company list moves the selection to another company.
    const user = await session.refresh('manual');
    setBusy(null);
    setOpen(false);
    // Without a company left, /loading sends the user on to onboarding's create-company step.
    navigate(user && user.companies.length > 0 ? '/dashboard' : '/loading?referrer=login', { replace: true });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} sx={{ p: { xs: 2, sm: 3 }, borderColor: 'error.light' }}>
      <Typography id={`${id}-title`} variant="h2" color="error" sx={{ fontSize: '1.25rem', mb: 1 }}>
        {t('management.deletion.title')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: { sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' } }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          {t('management.deletion.intro')}
        </Typography>
        <Button variant="outlined" color="error" onClick={() => void start()} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, flexShrink: 0 }}>
          {t('management.deletion.action')}
        </Button>
      </Box>
      <Dialog open={open} onClose={() => busy !== 'deleting' && setOpen(false)} aria-labelledby={`${id}-dialog-title`} aria-describedby={`${id}-dialog-text`} maxWidth="xs" fullWidth>
        <Box sx={{ height: 4 }}>{busy === 'deleting' && <LinearProgress color="error" aria-label={t('management.deletion.deleting')} />}</Box>
        <DialogTitle id={`${id}-dialog-title`}>{t('management.deletion.codeTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText id={`${id}-dialog-text`} sx={{ mb: 2 }}>
            {t('management.deletion.codeSent', { email, name: company.name })}
          </DialogContentText>
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>
            <CodeInput key={attempt} label={t('management.deletion.codeLabel')} onComplete={(code) => void submit(code)} disabled={busy === 'deleting'} autoFocus error={Boolean(error)} />
          </Box>
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
          {notice && (
            <Alert severity="info" sx={{ mt: 2 }}>
              {notice}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, justifyContent: 'space-between' }}>
          <Button onClick={() => void resend()} disabled={busy !== null}>
            {t('management.deletion.resend')}
          </Button>
          <Button color="inherit" onClick={() => setOpen(false)} disabled={busy === 'deleting'}>
            {t('management.deletion.cancel')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
