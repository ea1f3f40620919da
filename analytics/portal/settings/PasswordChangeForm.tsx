import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import type { PasswordChange } from '../../domain/schemas';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';

/** Password change: the old password, a new one, typed twice ('Passwords do not match'); the server checks old and new differ. */
export function PasswordChangeForm() {
  const { t } = useTranslation();
  const { api, writable } = useAnalytics();
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirmation: '' });
  const { run, failure, setFailure, submitting: saving } = useFormSubmit();
  const change = useDashboardMutation(api, (a, body: PasswordChange) => a.changePassword(body));
  const mismatch = values.confirmation !== '' && values.newPassword !== values.confirmation;

  const save = async () => {
    if (!values.newPassword || values.newPassword !== values.confirmation) return setFailure(t('analytics.settings.noMatch'));
    if (!(await run(() => change.mutateAsync(values)))) return;
    setValues({ oldPassword: '', newPassword: '', confirmation: '' });
    showToast({ text: t('analytics.settings.changed'), variant: 'successful' });
  };
  const field = (name: keyof typeof values, label: string, error = false, helper?: string) => (
    <TextField
      type="password"
      label={label}
      value={values[name]}
      error={error}
      helperText={helper}
      autoComplete={name === 'oldPassword' ? 'current-password' : 'new-password'}
      onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      disabled={!writable}
    />
  );
  return (
    <Stack component="form" noValidate spacing={2} aria-label={t('analytics.settings.password')} onSubmit={(e) => (e.preventDefault(), void save())}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      {field('oldPassword', t('analytics.settings.oldPassword'))}
      {field('newPassword', t('analytics.settings.newPassword'))}
      {field('confirmation', t('analytics.settings.confirmation'), mismatch, mismatch ? t('analytics.settings.noMatch') : undefined)}
      <Button type="submit" variant="contained" loading={saving} disabled={!writable} sx={{ alignSelf: 'flex-start' }}>
        {t('analytics.settings.password')}
      </Button>
    </Stack>
  );
}
