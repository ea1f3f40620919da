import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { ApiError } from '../../dataProvider/httpClient';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { authForms } from './authFormsLoader';
import { AuthHeading } from './AuthHeading';
import { BackToLogin } from './BackToLogin';
import { EmailRequestForm } from './EmailRequestForm';
import { MailSent } from './MailSent';

const PAGE = '/forgot-password';
const INVALID = `${PAGE}?error=reset-code-invalid`;

/** Checks the mailed token first (SPEC §4): an invalid or failing one goes back to the email step. */
function ResetPasswordStep({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [checked, setChecked] = useState(false);
  const { control, handleSubmit, setError, formState } = useForm({
    resolver: lazyResolver(authForms, (f) => f.resolvers.resetPassword),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });
  // A used or expired code goes back to the email step; the rest shows on the field or the form.
  const tokenInvalid = (error: unknown) => error instanceof ApiError && error.code === 'TOKEN_INVALID' && (navigate(INVALID, { replace: true }), true);
  const { run, failure } = useFormSubmit({ fields: ['password'], setError, intercept: tokenInvalid });

  useEffect(() => {
    let live = true;
    authApi.verifyResetToken(token).then(
      () => live && setChecked(true),
      () => live && navigate(INVALID, { replace: true }),
    );
    return () => {
      live = false;
    };
  }, [token, navigate]);

  const submit = handleSubmit(async ({ password }) => {
    if (await run(() => authApi.resetPassword({ token, password }))) navigate('/signin?ref=password-reset');
  });

  if (!checked) {
    return (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={24} aria-hidden />
        <Typography color="text.secondary">{t('auth.forgot.checking')}</Typography>
      </Stack>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Typography color="text.secondary">{t('auth.forgot.resetIntro')}</Typography>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <PasswordField control={control} name="password" label={t('auth.forgot.newPassword')} autoComplete="new-password" showRules autoFocus />
        <PasswordField control={control} name="confirmPassword" label={t('auth.forgot.confirmPassword')} autoComplete="new-password" />
        <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
          {t('auth.forgot.resetSubmit')}
        </Button>
      </Stack>
    </Box>
  );
}

/**
 * Forgot password in three steps (SPEC §2): getEmail, mailSent (query mailSent) and
 * resetPassword (query resetPassword plus the mailed token).
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const sentTo = (useLocation().state as { email?: string } | null)?.email ?? null;
  const token = params.get('token');
  const resetting = params.has('resetPassword');
  const step = resetting && token ? 'resetPassword' : params.has('mailSent') ? 'mailSent' : 'getEmail';

  let body;
  if (step === 'resetPassword' && token) {
    body = <ResetPasswordStep key={token} token={token} />;
  } else if (step === 'mailSent') {
    body = <MailSent email={sentTo} onRetry={() => navigate(PAGE)} />;
  } else {
    // SPEC §8: a reset link without its code, or with a bad one, lands on the email step.
    const initialError = resetting ? t('errors.resetCodeMissing') : params.get('error') === 'reset-code-invalid' ? t('errors.resetCodeInvalid') : null;
    body = (
      <EmailRequestForm
        key={params.toString()}
        submitLabel={t('auth.forgot.submit')}
        initialError={initialError}
        send={authApi.forgotPassword}
        onSent={(email) => navigate(`${PAGE}?mailSent`, { state: { email } })}
      />
    );
  }
  return (
    <>
      <AuthHeading title={step === 'resetPassword' ? t('auth.forgot.resetHeading') : t('titles.forgotPassword')} intro={step === 'getEmail' ? t('auth.forgot.intro') : undefined} />
      {body}
      <Box>
        <BackToLogin to="/signin" />
      </Box>
    </>
  );
}
