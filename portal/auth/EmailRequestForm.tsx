import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { EmailOnlyBody } from '../../src/domain/auth/schemas';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { applyServerErrors, failureMessage } from '../../src/ui/form/messages';
import { authForms } from './authFormsLoader';

interface Props {
  submitLabel: string;
  /** An error to show before anything is typed, e.g. a reset link that did not work. */
  initialError?: string | null;
  send: (body: EmailOnlyBody) => Promise<unknown>;
  onSent: (email: string) => void;
}

/** The email step of forgot-password and unlock (SPEC §5: required, valid, at most 320). */
export function EmailRequestForm({ submitLabel, initialError = null, send, onSent }: Props) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm({ resolver: lazyResolver(authForms, (f) => f.resolvers.emailOnly), mode: 'onTouched', defaultValues: { email: '' } });
  const submit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      await send(body);
      onSent(body.email);
    } catch (error) {
      if (!applyServerErrors(error, ['email'], setError)) setFailure(failureMessage(error, t));
    }
  });
  const shown = failure ?? (formState.isSubmitted ? null : initialError);
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        {shown && (
          <Alert severity="error" role="alert">
            {shown}
          </Alert>
        )}
        <FormTextField control={control} name="email" label={t('auth.form.email')} type="email" inputMode="email" autoComplete="email" autoFocus />
        <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}
