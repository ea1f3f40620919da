import { zodResolver } from '@hookform/resolvers/zod';
import DeleteForever from '@mui/icons-material/DeleteForever';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useDeleteMe } from '../../dataProvider/auth/queries';
import { useExportData } from '../../dataProvider/users/queries';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { confirm } from '../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { exportFileName } from '../../src/ui/table/exportFile';
import { productPrefix, saveBlob } from './files';
import { SettingsSection } from './SettingsSection';
import '../../src/profileI18n';

function ExportCard() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const exportData = useExportData();
  const exporting = useFormSubmit({ intercept: session.handleError });
  const download = async () => {
    setNotice(null);
    const current = session.getSnapshot().user;
    if (!current) return setNotice({ severity: 'error', text: t('errors.sessionTimedOut') });
    setBusy(true);
    await exporting.run(async () => {
      // SPEC §7 Other: a GET to the supplied endpoint, saved as a JSON file named with the date.
      const data = await exportData.mutateAsync(current._id);
      const file = exportFileName(`${productPrefix()}-data`, 'json');
      saveBlob(data, file);
      setNotice({ severity: 'success', text: t('profile.data.exported', { file }) });
    });
    setBusy(false);
  };
  return (
    <SettingsSection title={t('profile.data.exportHeading')} intro={t('profile.data.exportIntro')}>
      <Stack spacing={2}>
        {exporting.failure && (
          <Alert severity="error" role="alert">
            {exporting.failure}
          </Alert>
        )}
        {notice && (
          <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'}>
            {notice.text}
          </Alert>
        )}
        <Box>
          <Button variant="contained" startIcon={<Download />} onClick={() => void download()} loading={busy}>
            {t('profile.data.export')}
          </Button>
        </Box>
      </Stack>
    </SettingsSection>
  );
}

// Accounts with a password confirm deletion with it; Google-only accounts have none to give.
const withPassword = z.object({ password: z.string().min(1, 'validation.required').max(256, 'validation.invalid') });
const withoutPassword = z.object({ password: z.string() });

function DeleteCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const needsPassword = user.hasPassword;
  const [deleting, setDeleting] = useState(false);
  const { control, handleSubmit, setError } = useForm({ resolver: zodResolver(needsPassword ? withPassword : withoutPassword), mode: 'onTouched', defaultValues: { password: '' } });
  const { run, failure, setFailure } = useFormSubmit({ fields: ['password'], setError, intercept: session.handleError });
  const deleteMe = useDeleteMe();

  const submit = handleSubmit(async ({ password }) => {
    setFailure(null);
    const confirmed = await confirm({
      type: 'danger',
      title: t('profile.data.confirmTitle'),
      message: t('profile.data.confirmMessage'),
      labels: { confirm: t('profile.data.confirm'), cancel: t('profile.data.keep') },
    });
    if (!confirmed) return;
    setDeleting(true);
    const deleted = await run(() => deleteMe.mutateAsync(needsPassword ? password : undefined));
    if (!deleted) return setDeleting(false);
    // The account and its sessions are gone: sign out here too, and leave for the start page.
    session.end(null, 'signOut');
    navigate('/', { replace: true });
  });

  return (
    <SettingsSection title={t('profile.data.deleteHeading')} intro={t('profile.data.deleteIntro')} danger>
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2} sx={{ maxWidth: 480 }}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {needsPassword && <PasswordField control={control} name="password" label={t('profile.data.password')} autoComplete="current-password" />}
          <Box>
            <Button type="submit" variant="contained" color="error" startIcon={<DeleteForever />} loading={deleting}>
              {t('profile.data.delete')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </SettingsSection>
  );
}

/** /profile/data (SPEC §2): download everything kept about the user, or delete the account. */
export default function DataSettings({ user }: { user: CurrentUser }) {
  return (
    <Stack spacing={3}>
      <ExportCard />
      <DeleteCard user={user} />
    </Stack>
  );
}
