import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useReauthenticate } from '../../dataProvider/auth/queries';
import type { CurrentUser } from '../../src/domain/auth/schemas';
import { session } from '../../src/session';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import '../../src/profileI18n';

const confirmSchema = z.object({ password: z.string().min(1, 'validation.required').max(256, 'validation.invalid') });

/**
 * Setting up a second factor replaces how the account signs in, so the server asks for a recent
 * proof of identity (REAUTH_REQUIRED): the password again, or, for an account without one, a
 * fresh sign-in with Google.
 */
export function ConfirmIdentity({ user, onConfirmed, onCancel }: { user: CurrentUser; onConfirmed: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm({ resolver: zodResolver(confirmSchema), defaultValues: { password: '' } });
  // Shown above the field too: a wrong password is the usual mistake here and must be obvious.
  const { run, failure } = useFormSubmit({ fields: ['password'], setError, alwaysReport: true, intercept: session.handleError });
  const reauthenticate = useReauthenticate();
  const submit = handleSubmit(({ password }) =>
    run(async () => {
      await reauthenticate.mutateAsync({ password });
      onConfirmed();
    }),
  );
  if (!user.hasPassword) {
    return (
      <Stack spacing={2}>
        <Alert severity="info" role="note">
          {t('profile.confirmIdentity.signInAgain')}
        </Alert>
        <Box>
          <Button onClick={onCancel}>{t('profile.twoFactor.cancel')}</Button>
        </Box>
      </Stack>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Typography>{t('profile.confirmIdentity.intro')}</Typography>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <PasswordField control={control} name="password" label={t('profile.confirmIdentity.password')} autoComplete="current-password" autoFocus />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t('profile.confirmIdentity.submit')}
          </Button>
          <Button onClick={onCancel}>{t('profile.twoFactor.cancel')}</Button>
        </Stack>
      </Stack>
    </Box>
  );
}

