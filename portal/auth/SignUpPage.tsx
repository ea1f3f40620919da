import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { session } from '../../src/session';
import { CheckboxField } from '../../src/ui/form/CheckboxField';
import { LEGAL_LINKS, LinkedLabel } from '../../src/ui/form/LinkedLabel';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { applyServerErrors } from '../../src/ui/form/messages';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { authForms } from './authFormsLoader';
import { AuthHeading } from './AuthHeading';
import { signUpFailure, stripErrorPrefix } from './signUpFailure';
import type { PendingConfiguration } from '../../src/domain/orders/schemas';
import { GoogleSignIn } from './GoogleSignIn';

const FIELDS = ['firstName', 'lastName', 'email', 'password'] as const;

// Shown after a sign-up only, so not in the page's first load: asked for when the form is sent, it
// arrives with the server's answer.
const loadMailSent = () => import('./MailSent');
const MailSent = lazy(() => loadMailSent().then((module) => ({ default: module.MailSent })));

/**
 * Public sign-up (SPEC §2, §4, §5). The server answers the same whether or not the address is
 * taken and signs nobody in, so success asks the user to open the mailed link, which signs in.
 * The pre-login wizard's complete-setup step embeds it (`onSignedUp` keeps the order for later).
 */
export default function SignUpPage({ onSignedUp, pendingOrder }: { onSignedUp?: () => void; pendingOrder?: () => PendingConfiguration | null } = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState, getValues, trigger } = useForm({
    resolver: lazyResolver(authForms, (f) => f.resolvers.signUp),
    mode: 'onTouched',
    defaultValues: { firstName: '', lastName: '', email: '', password: '' },
  });

  const submit = handleSubmit(async ({ firstName, lastName, email, password }) => {
    setFailure(null);
    void loadMailSent();
    try {
      // The wizard's order goes with the account, for a verification link opened on another device.
      const order = pendingOrder?.() ?? null;
      const { email: sent } = await authApi.signUp({ firstName, lastName, email, password, ...(order ? { pendingOrder: order } : {}) });
      onSignedUp?.();
      setSentTo(sent);
    } catch (error) {
      applyServerErrors(error, FIELDS, setError, stripErrorPrefix);
      setFailure(signUpFailure(error, t));
    }
  });

  // Social sign-up needs both agreements too (SPEC §8); the boxes are in the form below.
  const signUpWithGoogle = async (idToken: string) => {
    setFailure(null);
    const { acceptTerms, acceptPrivacy } = getValues();
    if (acceptTerms !== true || acceptPrivacy !== true) {
      void trigger(['acceptTerms', 'acceptPrivacy']);
      setFailure(t('errors.checkboxesRequired'));
      return;
    }
    try {
      await authApi.googleSignUp(idToken);
      onSignedUp?.();
      // SPEC §4: social sign-up refreshes the user before moving on. Google vouched for the
      // address, so there is no verify step: loading sends a new account on to its company.
      await session.refresh('manual');
      navigate('/loading?referrer=login');
    } catch (error) {
      setFailure(signUpFailure(error, t));
    }
  };

  if (sentTo) {
    return (
      <>
        <AuthHeading title={t('titles.signUp')} />
        <Suspense fallback={null}>
          <MailSent email={sentTo} body={t('auth.signUp.checkMail', { email: sentTo })} onRetry={() => setSentTo(null)} />
        </Suspense>
      </>
    );
  }

  return (
    <>
      <AuthHeading title={t('titles.signUp')} intro={t('auth.signUp.intro')} />
      <GoogleSignIn mode="signUp" onCredential={(idToken) => void signUpWithGoogle(idToken)} />
      <Box component="form" noValidate onSubmit={submit}>
        <Stack spacing={2}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormTextField control={control} name="firstName" label={t('auth.form.firstName')} autoComplete="given-name" autoFocus />
            <FormTextField control={control} name="lastName" label={t('auth.form.lastName')} autoComplete="family-name" />
          </Box>
          <FormTextField control={control} name="email" label={t('auth.form.email')} type="email" inputMode="email" autoComplete="email" />
          <PasswordField control={control} name="password" label={t('auth.form.password')} autoComplete="new-password" showRules />
          <Box>
            <CheckboxField control={control} name="acceptTerms" label={<LinkedLabel text={t('auth.signUp.acceptTerms')} linkText={t('auth.signUp.termsLink')} href={LEGAL_LINKS.terms} />} />
            <CheckboxField control={control} name="acceptPrivacy" label={<LinkedLabel text={t('auth.signUp.acceptPrivacy')} linkText={t('auth.signUp.privacyLink')} href={LEGAL_LINKS.privacy} />} />
          </Box>
          <Button type="submit" variant="contained" size="large" fullWidth loading={formState.isSubmitting}>
            {t('auth.signUp.submit')}
          </Button>
          <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('auth.signUp.haveAccount')}{' '}
            <Link component={RouterLink} to="/account/signin">
              {t('auth.signUp.signIn')}
            </Link>
          </Typography>
        </Stack>
      </Box>
    </>
  );
}
