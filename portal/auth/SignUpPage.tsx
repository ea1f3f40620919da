import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { authApi } from '../../dataProvider/auth';
import { session } from '../../src/session';
import { FormTextField } from '../../src/ui/form/FormTextField';
import { lazyResolver } from '../../src/ui/form/lazyResolver';
import { PasswordField } from '../../src/ui/form/PasswordField';
import { applyServerErrors } from '../../src/ui/form/messages';
import { authForms } from './authFormsLoader';
import { AuthHeading } from './AuthHeading';
import { NameFields } from './NameFields';
import { SignUpFormEnd } from './SignUpFormEnd';
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
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState, getValues, trigger } = useForm({
    resolver: lazyResolver(authForms, (f) => f.resolvers.signUp),
    mode: 'onTouched',
    defaultValues: { firstName: '', lastName: '', email: '', password: '' },
  });

  // Not useFormSubmit: this page is the heaviest of the front door, at its budget (scripts/bundle-budget.ts).
  const [failure, setFailure] = useState<string | null>(null);
  const failed = (error: unknown) => setFailure(signUpFailure(error, t));

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
      failed(error);
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
      failed(error);
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
          <NameFields control={control} />
          <FormTextField control={control} name="email" label={t('auth.form.email')} type="email" inputMode="email" autoComplete="email" />
          <PasswordField control={control} name="password" label={t('auth.form.password')} autoComplete="new-password" showRules />
          <SignUpFormEnd control={control} submitLabel={t('auth.signUp.submit')} submitting={formState.isSubmitting} />
        </Stack>
      </Box>
    </>
  );
}
