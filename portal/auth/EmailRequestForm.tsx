import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { EmailOnlyBody } from '../../src/domain/auth/schemas';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
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
  const { control, handleSubmit, setError, formState } = useForm({ resolver: lazyResolver(authForms, (f) => f.resolvers.emailOnly), mode: 'onTouched', defaultValues: { email: '' } });
  const { run, failure } = useFormSubmit({ fields: ['email'], setError });
  const submit = handleSubmit(async (body) => {
    if (await run(() => send(body))) onSent(body.email);
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
